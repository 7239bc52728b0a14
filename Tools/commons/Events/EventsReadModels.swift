import EventLog
import Foundation
import GRDB

/// The projection checkpoints stored in one read model's live file.
struct ReadModelCheckpoints {
    /// The read model's name: its pointer file is `<name>.current`.
    var name: String
    /// The live file the pointer names.
    var file: String
    var projections: Result<[(projection: String, checkpoint: Checkpoint)], any Error>
}

/// Finds the read models in `directory` by their `*.current` pointer files and reads each
/// live file's checkpoints, read-only. A file that cannot be read is reported, not thrown.
func readModelCheckpoints(in directory: URL) -> [ReadModelCheckpoints] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".current") }
        .sorted()
    return names.map { pointer in
        let name = String(pointer.dropLast(".current".count))
        let file =
            (try? String(contentsOf: directory.appendingPathComponent(pointer), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let projections = Result { try storedCheckpoints(path: directory.appendingPathComponent(file).path) }
        return ReadModelCheckpoints(name: name, file: file, projections: projections)
    }
}

/// The rows of `projection_checkpoints` in the SQLite file at `path`, opened read-only.
func storedCheckpoints(path: String) throws -> [(projection: String, checkpoint: Checkpoint)] {
    // SQLite would only say "unable to open database file".
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no file at \(path)") }
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
        guard try db.tableExists("projection_checkpoints") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT projection, transaction_id, position FROM projection_checkpoints ORDER BY projection")
            .map { row in
                let transaction: Int64 = row["transaction_id"]
                return (row["projection"], Checkpoint(transaction: UInt64(bitPattern: transaction), position: row["position"]))
            }
    }
}
