import EventLog
import Foundation
import GRDB

/// A consistent copy of a read model, made by one replica and taken up by another that has
/// none: the file carries each projection's checkpoint, so the new replica goes on from there.
///
/// The copy is SQLite's online backup of one read transaction: the rows and the checkpoints
/// in it are of the same moment, whatever the projections write meanwhile.
public enum ReadModelSnapshot {
    /// Why a snapshot file is not taken up; the replica then rebuilds from the log.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Copies the live file of `database` to a new file at `path`, which must not exist. The
    /// copy runs on one of the file's reader connections, off the caller's thread.
    public static func copy(of database: ReadModelDatabase, to path: String) async throws {
        let destination = try DatabaseQueue(path: path)
        defer { try? destination.close() }
        try await database.pool.read { db in
            try destination.writeWithoutTransaction { copy in try db.backup(to: copy) }
        }
    }

    /// Checks the file at `path` before it is taken up: SQLite finds it sound, and its schema
    /// is exactly what `projections` make (no migration missing, none unknown). Returns the
    /// checkpoint of each projection.
    public static func check(_ path: String, projections: [any Projection]) throws -> [String: Checkpoint] {
        // Not read-only: a file in WAL mode with no `-shm` beside it cannot be opened read-only.
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path)
        } catch {
            throw Refusal(description: "not a SQLite database (\(error))")
        }
        defer { try? queue.close() }
        let migrator = ReadModelDatabase.migrator(for: projections)
        return try queue.read { db in
            let verdict = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard verdict == ["ok"] else { throw Refusal(description: "damaged: \(verdict.prefix(3).joined(separator: "; "))") }
            let applied = try migrator.appliedIdentifiers(db)
            let expected = Set(migrator.migrations)
            guard applied == expected else {
                let missing = expected.subtracting(applied).sorted()
                let unknown = applied.subtracting(expected).sorted()
                throw Refusal(description: "schema differs: missing \(missing), unknown \(unknown)")
            }
            var checkpoints: [String: Checkpoint] = [:]
            for projection in projections {
                checkpoints[projection.name] = try ProjectionCheckpoints.load(db, projection: projection.name)
            }
            return checkpoints
        }
    }

    /// Whether read model `name` has a live file in `directory`: a pointer naming a file that exists.
    public static func hasLiveFile(directory: URL, name: String) -> Bool {
        let pointer = directory.appendingPathComponent("\(name).current")
        guard let file = try? String(contentsOf: pointer, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !file.isEmpty
        else { return false }
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
    }

    /// Makes the checked file at `path`, in `directory`, the live file of read model `name`,
    /// before the service opens it.
    public static func adopt(_ path: String, directory: URL, name: String) throws {
        try ReadModelDatabase.writePointer(
            directory.appendingPathComponent("\(name).current"), to: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// A path for a file of read model `name` in `directory` that the next start removes if
    /// it is not live by then (a copy being written or sent).
    public static func scratchPath(directory: URL, name: String) -> String {
        // Digits only, as a rebuilt file's name is; the random tail keeps two copies made in
        // the same millisecond apart.
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        return directory.appendingPathComponent("\(name).\(stamp)\(Int.random(in: 100_000...999_999)).sqlite").path
    }
}

extension ReadModelSnapshot {
    /// Removes a snapshot file and its companions; one already gone is no error.
    public static func remove(_ path: String) { ReadModelFiles.remove(path) }
}
