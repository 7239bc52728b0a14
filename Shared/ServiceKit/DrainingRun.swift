import Logging
import ServiceLifecycle
import UnixSignals

/// Runs a service's application until SIGTERM or SIGINT, draining first (``ShutdownDrain``):
/// the first signal starts the drain and, `drain` later, the graceful shutdown (the server
/// stops listening, answers what it has, and the other services stop in order); a second
/// signal shuts down at once.
enum DrainingRun {
    static func run(_ application: some Service, drain: ShutdownDrain, period: Duration, logger: Logger) async throws {
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                guard let signal = await Self.nextSignal() else { return }
                drain.begin()
                logger.notice("stopping: draining before the server stops listening", metadata: ["signal": "\(signal)", "seconds": "\(period)"])
                await withTaskGroup(of: Void.self) { wait in
                    wait.addTask { try? await Task.sleep(for: period) }
                    wait.addTask { _ = await Self.nextSignal() }
                    await wait.next()
                    wait.cancelAll()
                }
                await group.triggerGracefulShutdown()
            }
            // The group ends after the graceful shutdown, or on its own when a service fails:
            // the signal watch, which may still be waiting, goes with it.
            do {
                try await group.run()
            } catch {
                tasks.cancelAll()
                throw error
            }
            tasks.cancelAll()
        }
    }

    /// The next SIGTERM or SIGINT; nil when the task is cancelled first.
    private static func nextSignal() async -> UnixSignal? {
        var signals = await UnixSignalsSequence(trapping: .sigterm, .sigint).makeAsyncIterator()
        return await signals.next()
    }
}
