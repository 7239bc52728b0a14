import EventLog
import Foundation
import GRDB

/// The key vault's rows for the embedded log: their own SQLite file beside the log, so
/// that an export of the log never carries keys. Destroyed keys leave a tombstone row,
/// and the file is rewritten so that no page keeps the old value.
public final class SQLiteKeyStorage: KeyStorage {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DatabaseQueue(path: path, configuration: .besideTheLog)
        try queue.write { db in
            // secure_delete overwrites deleted content, so a destroyed key leaves no bytes behind.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS keys (owner TEXT PRIMARY KEY, material BLOB, destroyed_at REAL)")
            if try !db.columns(in: "keys").contains(where: { $0.name == "destroyed_under" }) {
                try db.execute(sql: "ALTER TABLE keys ADD COLUMN destroyed_under BLOB")
            }
        }
    }

    public func storeIfAbsent(_ candidate: Data, for owner: UUID) async throws -> Data? {
        try await queue.write { db in
            let id = owner.lowercasedText
            if let row = try Row.fetchOne(db, sql: "SELECT material FROM keys WHERE owner = ?", arguments: [id]) {
                return row["material"] as Data?
            }
            try db.execute(sql: "INSERT INTO keys (owner, material) VALUES (?, ?)", arguments: [id, candidate])
            return candidate
        }
    }

    public func stored(for owner: UUID) async throws -> Data? {
        try await queue.read { db in
            try Data.fetchOne(db, sql: "SELECT material FROM keys WHERE owner = ?", arguments: [owner.lowercasedText])
        }
    }

    public func destroy(_ owner: UUID, wrappedBy: Data?) async throws {
        // A key destroyed again keeps its first destruction's time and secret.
        try await queue.write { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(
                sql: """
                    INSERT INTO keys (owner, material, destroyed_at, destroyed_under) VALUES (?, NULL, julianday('now'), ?)
                    ON CONFLICT (owner) DO UPDATE SET material = NULL, destroyed_at = excluded.destroyed_at,
                        destroyed_under = excluded.destroyed_under
                    WHERE keys.material IS NOT NULL OR keys.destroyed_at IS NULL
                    """, arguments: [owner.lowercasedText, wrappedBy])
        }
        // Push the change out of the WAL into the main file, so the old page is overwritten.
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    public func destroyedKeys() async throws -> [DestroyedKeys] {
        try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT destroyed_under, count(*) AS n, min(destroyed_at) AS earliest FROM keys
                    WHERE material IS NULL AND destroyed_at IS NOT NULL GROUP BY destroyed_under
                    """
            ).map { row in
                // julianday: days since noon, 24 November 4714 BC; the Unix epoch is day 2440587.5.
                let earliest = Date(timeIntervalSince1970: ((row["earliest"] as Double) - 2_440_587.5) * 86_400)
                return DestroyedKeys(wrappedBy: row["destroyed_under"] as Data?, count: row["n"], earliest: earliest)
            }
        }
    }

    public func live(after owner: UUID?, limit: Int) async throws -> [(owner: UUID, value: Data)] {
        try await queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT owner, material FROM keys WHERE material IS NOT NULL AND owner > ? ORDER BY owner LIMIT ?",
                arguments: [owner?.lowercasedText ?? "", limit]
            ).compactMap { row in
                guard let owner = UUID(uuidString: row["owner"]), let value = row["material"] as Data? else { return nil }
                return (owner, value)
            }
        }
    }

    public func replace(_ owner: UUID, _ old: Data, with new: Data) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: "UPDATE keys SET material = ? WHERE owner = ? AND material = ?", arguments: [new, owner.lowercasedText, old])
            return db.changesCount == 1
        }
    }
}
