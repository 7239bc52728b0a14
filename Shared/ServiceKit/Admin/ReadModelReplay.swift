import EventLog
import Foundation
import ReadModel
import Synchronization

/// One replay at a time of a service's read model, started by an administrator over HTTP:
/// every projection is applied again from the start of the log into a new file while the
/// live one keeps serving, and the new file is then swapped in (the runners go on from its
/// checkpoint). It is this replica's read model only: each replica keeps its own file.
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
        Task { await run() }
        return true
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
            try? FileManager.default.removeItem(atPath: path)
            runtime.logger.error("read model replay failed", metadata: ["error": "\(error)"])
            finish(.failed, error: "\(error)")
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
