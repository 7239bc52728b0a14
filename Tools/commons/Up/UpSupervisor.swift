import Backoff
import Foundation
import Spawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps one service running: starts its executable, relays its output, restarts it with
/// back-off when it exits on its own, and stops it when asked.
final class ServiceSupervisor: Sendable {
    let name: String
    let executable: String
    let environment: [String: String]
    let console: UpConsole

    private struct State {
        var child: ChildProcess?
        var stopping = false
        var refusal: String?
    }
    private let state = Mutex(State())

    init(name: String, executable: String, environment: [String: String], console: UpConsole) {
        self.name = name
        self.executable = executable
        self.environment = environment
        self.console = console
    }

    /// The exit status of a service that refused its configuration (`ServiceMain`).
    static let badConfiguration: Int32 = 2

    /// Runs the service until ``stop(with:)``, restarting it whenever it exits before that,
    /// unless it refused its configuration.
    /// Returns once the last child has exited; cancel the task to cut a back-off short.
    func run() async {
        var backoff = RestartBackoff()
        while !isStopping {
            let started = ContinuousClock.now
            let outcome: String
            do {
                let (exit, lastError) = try await runOnce()
                if isStopping {
                    let asked = exit == .exited(0) || exit == .killed(signal: SIGTERM)
                    console.say("\(name) \(asked ? "stopped" : exit.description)")
                    return
                }
                if exit == .exited(Self.badConfiguration) {
                    // The services exit with 2 on bad configuration; starting again cannot help.
                    state.withLock { $0.refusal = lastError ?? "\(name): bad configuration" }
                    console.say("\(name) exited with status 2: bad configuration (its line is above); not restarted")
                    while !isStopping { try? await Task.sleep(for: .milliseconds(200)) }
                    return
                }
                outcome = exit.description
            } catch {
                outcome = "could not start: \(error)"
            }
            let delay = backoff.delay(afterRunningFor: ContinuousClock.now - started)
            console.say("\(name) \(outcome); restarting in \(readableSeconds(delay))")
            try? await Task.sleep(for: delay)
        }
    }

    /// Sends `signal` to the running child, and stops restarting it.
    /// - Returns: whether a child was running.
    @discardableResult
    func stop(with signal: Int32) -> Bool {
        let child = state.withLock { state in
            state.stopping = true
            return state.child
        }
        child?.send(signal)
        return child != nil
    }

    /// The line with which the service refused its configuration (exit 2), once it has.
    var refusal: String? { state.withLock { $0.refusal } }

    /// The pid of the running child, if any.
    var pid: pid_t? { state.withLock { $0.child?.pid } }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// Starts the child, relays its output until it ends and reaps it; returns how it ended
    /// and the last line it wrote on stderr.
    private func runOnce() async throws -> (ExitStatus, String?) {
        let child = try await ChildProcess.spawn(executable: executable, environment: environment)
        let adopted = state.withLock { state in
            state.child = child
            return !state.stopping
        }
        if !adopted { child.send(SIGTERM) } // stop(with:) came while it was starting
        console.say("\(name) started, pid \(child.pid)")
        async let exit = child.waitForExit()
        async let stdout = console.relay(child.stdout, from: name, to: .standardOutput)
        async let stderr = console.relay(child.stderr, from: name, to: .standardError)
        let (_, lastError) = await (stdout, stderr)
        let status = await exit
        state.withLock { $0.child = nil }
        return (status, lastError)
    }
}

/// How long to wait before restarting a child that exited: 0.5 s, doubling up to 30 s,
/// and back to 0.5 s once a child has stayed up for 30 s. The shared ``Backoff`` without
/// jitter: one supervisor restarting its own child has no crowd to spread out, and the
/// line it prints says exactly when the restart comes.
struct RestartBackoff {
    static let policy = Backoff(initial: .milliseconds(500), maximum: .seconds(30), jitter: 0)
    /// How long a child must have run for its exit not to count as part of a crash loop.
    static let settled = Duration.seconds(30)

    private var retries = policy.attempts()

    /// The delay before restarting a child that ran for `uptime`.
    mutating func delay(afterRunningFor uptime: Duration) -> Duration {
        if uptime >= Self.settled { retries.reset() }
        return retries.next()
    }
}

/// `0.5 s`, `30 s`: to a tenth of a second.
func readableSeconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%g s", (value * 10).rounded() / 10)
}
