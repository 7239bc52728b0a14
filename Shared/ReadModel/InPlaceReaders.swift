import GRDB
import Synchronization

/// Read-only connections to one read-model file, for reads on the calling thread
/// (``ReadModelDatabase/readInPlace(_:)``): a stack of idle ones under a lock, one opened
/// when none is idle, so a read never waits for another.
///
/// GRDB's `DatabasePool` did this job before. Taking a reader from it costs a dispatch
/// queue's `sync`, a semaphore, a dispatch group, and a key path on a generic type that the
/// runtime builds afresh, demangling, on every call: `perf` put 4 % of geo-search's CPU in
/// it under a load of nearby searches (issue 17). Here a read costs a lock, and the read
/// transaction GRDB's `DatabaseQueue.read` opens and closes around it.
final class InPlaceReaders: Sendable {
    /// The file, by its name in the read model's directory.
    let file: String
    private let path: String
    private let idle = Mutex<[DatabaseQueue]>([])

    /// At most this many idle connections are kept; one given back beyond them is closed.
    /// Reads on the calling thread run on Swift concurrency's threads, one per core, so a
    /// few is all there ever are at once.
    static let keptIdle = 8

    /// Opens one connection to `path` at once, so that a file that cannot be read fails here.
    init(path: String, file: String) throws {
        self.path = path
        self.file = file
        let first = try Self.open(path: path)
        idle.withLock { $0.append(first) }
    }

    /// Runs `value` in a read transaction on an idle connection, or a new one.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? Self.open(path: path)
        defer {
            idle.withLock { idle in
                if idle.count < Self.keptIdle { idle.append(reader) }
            }
        }
        return try reader.read(value)
    }

    /// How many connections wait idle (for tests).
    var idleCount: Int { idle.withLock(\.count) }

    private static func open(path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: ReadModelDatabase.readingConfiguration())
    }
}
