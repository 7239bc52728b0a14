import Foundation
import GRDB
import Logging
import Synchronization

/// Copies a live read model's WAL back into its file off the writer's path.
///
/// SQLite's own checkpoint runs inside the commit that fills the WAL past 1,000 pages: the
/// projection's commit then waited 3–5 ms for the copy and its `fsync`s, about one post in a
/// hundred, and a search waiting for that post (`Commons-Min-Position`) waited with it (a
/// p99 of post → visible). After a commit to the live file, a passive checkpoint runs
/// instead on a connection of its own, at most one at a time and one start per ``interval``,
/// while the writer goes on: a passive checkpoint takes no lock a writer or reader waits for.
/// Once it has copied everything, the next commit starts the WAL again from its beginning.
/// Under a steady stream of commits that moment may not come (each checkpoint ends with newer
/// commits not yet copied), so the writer still checkpoints itself past ``writerLimit``
/// pages, as SQLite does past 1,000: rarely, and with little left to copy.
final class WALCheckpointer: Sendable {
    /// The least time between the starts of two checkpoints.
    static let interval = Duration.milliseconds(100)
    /// The WAL's size in pages past which the live file's writer checkpoints in its commit
    /// (32 MB of 4 KB pages).
    static let writerLimit = 8_000

    private struct State {
        /// Whether a checkpointing task is under way (waiting out the interval, or copying).
        var running = false
        /// Whether a commit came after the running checkpoint started (another follows it).
        var pending = false
        var lastStart: ContinuousClock.Instant?
        /// The file of the last commit.
        var path = ""
        /// The connection of the last file checkpointed (a swapped-in file gets a new one).
        var connection: (path: String, queue: DatabaseQueue)?
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// After a commit to `pool`: a checkpoint of its file follows, at once or once
    /// ``interval`` has passed since the last one started; commits meanwhile share it, and
    /// one that comes while it copies gets the next.
    func committed(to pool: DatabasePool) {
        let path = pool.path
        let starts = state.withLock { state -> Bool in
            (state.pending, state.path) = (true, path)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if starts { Task.detached(priority: .utility) { await self.checkpointWhilePending() } }
    }

    /// Closes the connection to the file at `path`, if it has one: a file a swap replaced is
    /// about to be removed, and an open connection would keep its rows on disk.
    func forget(_ path: String) {
        let closing = state.withLock { state -> DatabaseQueue? in
            guard state.connection?.path == path else { return nil }
            defer { state.connection = nil }
            return state.connection?.queue
        }
        try? closing?.close()
    }

    private func checkpointWhilePending() async {
        while true {
            let wait = state.withLock { state in state.lastStart.map { Self.interval - (ContinuousClock.now - $0) } ?? .zero }
            if wait > .zero { try? await Task.sleep(for: wait) }
            let path = state.withLock { state in
                (state.pending, state.lastStart) = (false, ContinuousClock.now)
                return state.path
            }
            await checkpoint(path)
            let again = state.withLock { state -> Bool in
                if state.pending { return true }
                state.running = false
                return false
            }
            if !again { return }
        }
    }

    private func checkpoint(_ path: String) async {
        do {
            try await connection(to: path).writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        } catch {
            logger.warning("read model WAL checkpoint failed; the next commit tries again", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }

    private func connection(to path: String) throws -> DatabaseQueue {
        if let known = state.withLock({ $0.connection?.path == path ? $0.connection?.queue : nil }) { return known }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        state.withLock { $0.connection = (path, queue) }
        return queue
    }
}
