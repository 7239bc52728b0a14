import EventLog
import Foundation
import GRDB

/// Service secrets of the embedded log, in the key vault's file beside it (`<log>.keys`),
/// which no export carries.
public final class SQLiteServiceSecrets: ServiceSecrets {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DatabaseQueue(path: path, configuration: .besideTheLog)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS service_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL, version INTEGER NOT NULL)
                    """)
        }
    }

    public func read(_ name: String) async throws -> (value: Data, version: Int64)? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT value, version FROM service_secrets WHERE name = ?", arguments: [name])
                .map { ($0["value"] as Data, $0["version"] as Int64) }
        }
    }

    public func write(_ name: String, value: Data, replacing expected: Int64) async throws -> Bool {
        try await queue.write { db in
            if expected == 0 {
                try db.execute(sql: "INSERT OR IGNORE INTO service_secrets (name, value, version) VALUES (?, ?, 1)", arguments: [name, value])
            } else {
                try db.execute(
                    sql: "UPDATE service_secrets SET value = ?, version = version + 1 WHERE name = ? AND version = ?",
                    arguments: [value, name, expected])
            }
            return db.changesCount > 0
        }
    }
}
