import EventLog
import Foundation
import ReadModel
import ServiceLifecycle
import Synchronization

/// One replay at a time of a service's read model, started by an administrator over HTTP:
/// every projection is applied again from the start of the log into a new file while the
/// live one keeps serving, and the new file is then swapped in (the runners go on from its
/// checkpoint). It is this replica's read model only: each replica keeps its own file. A
/// graceful shutdown cancels it (``ReplayCancellation``).
public final class ReadModelReplay: Sendable {
    /// Where the latest replay stands.
    public struct Status: Sendable, Encodable, Equatable {
        public enum State: String, Sendable, Encodable { case running, done, failed }
        public var state: State
        public var startedAt: Date
        public var finishedAt: Date?
        /// Events applied so far.
        public var applied: Int
        /// The checkpoint reached so far, as `transaction:position`.
        public var checkpoint: String?
        /// Why it failed; the live read model is untouched then.
        public var error: String?
    }

    private let runtime: ServiceRuntime
    private let latest = Mutex<Status?>(nil)
    /// The replay under way, if any.
    private let running = Mutex<Task<Void, Never>?>(nil)

    public init(runtime: ServiceRuntime) {
        self.runtime = runtime
    }

    /// The latest replay since the process started; nil if none.
    public var status: Status? { latest.withLock { $0 } }

    /// Starts a replay unless one is running; false when one is.
    public func start() -> Bool {
        let started = latest.withLock { status in
            if status?.state == .running { return false }
            status = Status(state: .running, startedAt: Date(), applied: 0)
            return true
        }
        guard started else { return false }
        running.withLock { $0 = Task { await run() } }
        return true
    }

    /// Stops the replay under way, if any, and waits until its file is removed (a graceful
    /// shutdown: the live read model is untouched, and nothing half built stays on disk).
    public func cancel() async {
        let task = running.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    private func run() async {
        let database = runtime.readModel
        let path = database.newFilePath()
        do {
            try await ReadModelRebuild.rebuild(
                projections: runtime.runners.map(\.projection), from: runtime.store, into: path, keys: runtime.keyVault
            ) { [self] applied, checkpoint in
                latest.withLock {
                    $0?.applied = applied
                    $0?.checkpoint = checkpoint.description
                }
            }
            try database.swap(to: path)
            runtime.logger.notice("read model replayed and swapped in", metadata: ["file": "\(path)"])
            finish(.done, error: nil)
        } catch {
            ReadModelSnapshot.remove(path)
            if Task.isCancelled {
                runtime.logger.notice("read model replay cancelled: the service is stopping", metadata: ["file": "\(path)"])
                finish(.failed, error: "cancelled: the service stopped")
            } else {
                runtime.logger.error("read model replay failed", metadata: ["error": "\(error)"])
                finish(.failed, error: "\(error)")
            }
        }
    }

    private func finish(_ state: Status.State, error: String?) {
        latest.withLock {
            $0?.state = state
            $0?.finishedAt = Date()
            $0?.error = error
        }
    }
}

/// Cancels the replay under way when the service shuts down gracefully.
struct ReplayCancellation: Service {
    let replay: ReadModelReplay

    func run() async throws {
        try? await gracefulShutdown()
        await replay.cancel()
    }
}
