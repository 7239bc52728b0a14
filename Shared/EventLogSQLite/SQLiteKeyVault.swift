import EventLog
import Foundation
import GRDB

/// The key vault of the embedded log: its own SQLite file beside the log, so that an
/// export of the log never carries keys. Destroyed keys leave a tombstone row.
public final class SQLiteKeyVault: KeyVault {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DatabaseQueue(path: path, configuration: .besideTheLog)
        try queue.write { db in
            // secure_delete overwrites deleted content, so a destroyed key leaves no bytes behind.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS keys (owner TEXT PRIMARY KEY, material BLOB, destroyed_at REAL)")
        }
    }

    public func key(for owner: UUID) async throws -> Data {
        try await queue.write { db in
            let id = owner.uuidString.lowercased()
            if let row = try Row.fetchOne(db, sql: "SELECT material FROM keys WHERE owner = ?", arguments: [id]) {
                guard let material = row["material"] as Data? else { throw KeyDestroyedError(owner: owner) }
                return material
            }
            let material = SQLiteKeyVault.newKeyMaterial()
            try db.execute(sql: "INSERT INTO keys (owner, material) VALUES (?, ?)", arguments: [id, material])
            return material
        }
    }

    public func existingKey(for owner: UUID) async throws -> Data? {
        try await queue.read { db in
            try Data.fetchOne(db, sql: "SELECT material FROM keys WHERE owner = ?", arguments: [owner.uuidString.lowercased()])
        }
    }

    public func destroyKey(for owner: UUID) async throws {
        try await queue.write { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: """
                INSERT INTO keys (owner, material, destroyed_at) VALUES (?, NULL, julianday('now'))
                ON CONFLICT (owner) DO UPDATE SET material = NULL, destroyed_at = excluded.destroyed_at
                """, arguments: [owner.uuidString.lowercased()])
        }
        // Push the change out of the WAL into the main file, so the old page is overwritten.
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }
}
