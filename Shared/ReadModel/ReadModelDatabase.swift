import EventLog
import Foundation
import GRDB
import Logging
import Synchronization

/// A service's read model: a SQLite file (GRDB, WAL) that one process owns and writes.
///
/// The live file is named by a pointer file, `<name>.current`, so that a rebuilt file can
/// be swapped in atomically: ``swap(to:)`` renames a new pointer into place and opens the
/// new file, while readers that already hold the old pool finish on it undisturbed. The old
/// file is then removed (``ReadModelFiles``): no copy of the read model outlives erasure.
public final class ReadModelDatabase: Sendable {
    public let directory: URL
    public let name: String
    let projections: [any Projection]
    private let state: Mutex<(pool: DatabasePool, file: String)>
    /// The read-only connections of ``readInPlace(_:)`` to the live file, opened on first use.
    private let inPlace = Mutex<InPlaceReaders?>(nil)
    /// The version of the pointer file that ``followSwap()`` last read; while it stands, the
    /// pointer is not read again (a projection asks before every page).
    private let followedPointer = Mutex<FileVersion?>(nil)
    /// How long a file that a swap replaced is kept for the requests still reading it.
    private let retireAfter: Duration
    private let logger: Logger

    /// Opens the live file of read model `name` in `directory`, creating and migrating it as needed.
    ///
    /// A live file that SQLite finds damaged (`file is not a database`, `database disk image
    /// is malformed`, e.g. after a disk fault) is removed with its `-wal` and `-shm`, logged as
    /// critical, and replaced by an empty file: the projections then rebuild it from the event
    /// log, which holds everything, while the service reports not ready. A damaged copy is not
    /// kept: it would hold rows that erasure no longer reaches.
    ///
    /// Every other file of this read model in `directory` that is not live (one a swap
    /// replaced, a rebuild that did not finish) is removed too, unless a rebuild is still
    /// writing it. A file that a swap replaces while the process runs is removed
    /// `retireAfter` later, once the requests reading it are over (give the request deadline).
    public init(
        directory: URL, name: String, projections: [any Projection], retireAfter: Duration = .seconds(35),
        logger: Logger = Logger(label: "commons.readmodel")
    ) throws {
        self.directory = directory
        self.name = name
        self.projections = projections
        self.retireAfter = retireAfter
        self.logger = logger
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pointer = directory.appendingPathComponent("\(name).current")
        var file: String
        if let current = try? String(contentsOf: pointer, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !current.isEmpty {
            file = current
        } else {
            file = "\(name).sqlite"
            try Self.writePointer(pointer, to: file)
        }
        let pool: DatabasePool
        do {
            pool = try Self.openLive(path: directory.appendingPathComponent(file).path, projections: projections)
        } catch let error as DatabaseError where Self.isDamage(error) {
            ReadModelFiles.remove(directory.appendingPathComponent(file).path)
            let fresh = URL(fileURLWithPath: Self.newFilePath(directory: directory, name: name)).lastPathComponent
            logger.critical(
                "read model damaged; removed it and rebuilding from the event log",
                metadata: ["file": "\(file)", "error": "\(error.message ?? "\(error.resultCode)")", "rebuildingInto": "\(fresh)"])
            file = fresh
            pool = try Self.openLive(path: directory.appendingPathComponent(file).path, projections: projections)
            try Self.writePointer(pointer, to: file)
        }
        state = Mutex((pool, file))
        checkpointer = WALCheckpointer(logger: logger)
        let removed = ReadModelFiles.sweep(directory: directory, name: name, keeping: file)
        if !removed.isEmpty {
            logger.notice("removed read-model files that were not live", metadata: ["files": "\(removed.joined(separator: ", "))"])
        }
    }

    /// Whether SQLite's error says the file itself is damaged (not busy, not full, not missing).
    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// The pool of the live file. Take it once per request and use it throughout.
    public var pool: DatabasePool { state.withLock { $0.pool } }

    /// Runs a short, bounded read of the live file on the calling thread, in a read
    /// transaction of its own, on read-only connections of its own (``InPlaceReaders``).
    ///
    /// GRDB's `async` read hands its work to the reader's dispatch queue and back again: two
    /// thread switches around the query. Geo-search's nearby search, whose query is bounded by
    /// its scan budget, answered about a fifth more requests a second without them, and kept
    /// answers are looked up this way (``VersionToken/kept(in:_:)``; issue 17,
    /// `commons bench http`). Not for unbounded reads: it holds the calling thread (a Swift concurrency
    /// one) until it ends, and does not stop when the task is cancelled.
    ///
    /// Connections of its own, because the two kinds of read must not wait for the same ones:
    /// an `async` read keeps its connection until its task runs again, and a read on the
    /// calling thread that waits for a connection holds a thread of the few Swift concurrency
    /// has. With every connection held by `async` reads waiting for a thread and every thread
    /// waiting for a connection, the process would stop answering (`bench http` shows it). A
    /// read in place never waits for a connection: it takes an idle one or opens another.
    public func readInPlace<T>(_ value: (Database) throws -> T) throws -> T {
        try inPlaceReaders().read(value)
    }

    private func inPlaceReaders() throws -> InPlaceReaders {
        let file = state.withLock { $0.file }
        if let open = inPlace.withLock({ $0 }), open.file == file { return open }
        let readers = try InPlaceReaders(path: directory.appendingPathComponent(file).path, file: file)
        return inPlace.withLock { open in
            // Another thread may have opened them meanwhile: one set serves them all.
            if let open, open.file == file { return open }
            open = readers
            return readers
        }
    }

    /// The live file's path.
    public var path: String { directory.appendingPathComponent(state.withLock { $0.file }).path }

    /// A path for a new file to rebuild into, beside the live one.
    public func newFilePath() -> String {
        Self.newFilePath(directory: directory, name: name)
    }

    private static func newFilePath(directory: URL, name: String) -> String {
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        return directory.appendingPathComponent("\(name).\(stamp).sqlite").path
    }

    /// Makes the file at `path` (in this directory, built with the same projections) the
    /// live read model. Readers holding the old pool keep it until they let go; the old file
    /// is removed `retireAfter` later.
    public func swap(to path: String) throws {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let pool = try Self.openLive(path: directory.appendingPathComponent(file).path, projections: projections)
        try Self.writePointer(directory.appendingPathComponent("\(name).current"), to: file)
        let replaced = state.withLock { state in
            defer { state = (pool, file) }
            return state.file
        }
        if replaced != file { retire(replaced) }
    }

    /// Removes `file`, which a swap replaced, once the requests still reading it are over. A
    /// process that ends before leaves it to the next start (``init(directory:name:projections:retireAfter:logger:)``).
    private func retire(_ file: String) {
        let (path, delay, logger) = (directory.appendingPathComponent(file).path, retireAfter, logger)
        Task.detached { [weak self] in
            try? await Task.sleep(for: delay)
            // Swapped back in meanwhile (a replay into a path given twice): it serves again.
            if let self, self.state.withLock({ $0.file }) == file { return }
            self?.checkpointer.forget(path)
            ReadModelFiles.remove(path)
            logger.info("removed the read-model file a swap replaced", metadata: ["file": "\(file)"])
        }
    }

    /// Opens the file another process swapped in, if any; true when it changed.
    @discardableResult
    public func followSwap() throws -> Bool {
        let pointer = directory.appendingPathComponent("\(name).current")
        let version = FileVersion(path: pointer.path)
        if let version, followedPointer.withLock({ $0 == version }) { return false }
        guard let current = try? String(contentsOf: pointer, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !current.isEmpty, current != state.withLock({ $0.file })
        else {
            followedPointer.withLock { $0 = version }
            return false
        }
        let pool = try Self.openLive(path: directory.appendingPathComponent(current).path, projections: projections)
        let replaced = state.withLock { state in
            defer { state = (pool, current) }
            return state.file
        }
        followedPointer.withLock { $0 = version }
        retire(replaced)
        return true
    }

    /// How much of a read-model file each connection maps into memory (address space, not RAM).
    static let mappedBytes = 1 << 30

    /// How to open a read-model file that ``open(path:projections:)`` opened (so it exists,
    /// in WAL mode, with its schema) for reading only.
    static func readingConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)") }
        return configuration
    }

    /// ``open(path:projections:)`` for the live file: its writer leaves checkpoints to
    /// ``checkpointer`` up to ``WALCheckpointer/writerLimit`` pages.
    static func openLive(path: String, projections: [any Projection]) throws -> DatabasePool {
        let pool = try open(path: path, projections: projections)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerLimit)") }
        return pool
    }

    /// Checkpoints the live file's WAL after commits, off the writer's path.
    let checkpointer: WALCheckpointer

    /// Opens (creating if needed) a read-model file and brings its schema up to date.
    public static func open(path: String, projections: [any Projection]) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Reads map the file instead of copying pages through read(2): index walks over a
            // large read model then cost no system calls (measured ~2× on a million listings).
            // secure_delete: a row a projection deletes (a deleted account's) is overwritten in
            // the file, not left readable in a free page.
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA mmap_size = \(mappedBytes); PRAGMA secure_delete = ON")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrator(for: projections).migrate(pool)
        return pool
    }

    /// Every migration of a read model of `projections`: the kit's tables, then each projection's.
    static func migrator(for projections: [any Projection]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        ProjectionCheckpoints.registerMigrations(in: &migrator)
        ProjectionBulkLoads.registerMigrations(in: &migrator)
        for projection in projections { projection.registerMigrations(in: &migrator) }
        return migrator
    }

    /// The checkpoint of `projection` in the live file.
    public func checkpoint(of projection: String) throws -> Checkpoint {
        try pool.read { db in try ProjectionCheckpoints.load(db, projection: projection) }
    }

    static func writePointer(_ pointer: URL, to file: String) throws {
        let temporary = pointer.appendingPathExtension("tmp-\(UUID().uuidString)")
        try Data(file.utf8).write(to: temporary)
        if rename(temporary.path, pointer.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: pointer.path])
        }
    }
}
