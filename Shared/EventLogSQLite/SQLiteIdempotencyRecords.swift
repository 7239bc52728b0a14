import EventLog
import Foundation
import GRDB

/// Idempotency records of the embedded log: a SQLite file beside it
/// (`<log>.idempotency`), shared by every service process on the machine.
public final class SQLiteIdempotencyRecords: IdempotencyRecords {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DatabaseQueue(path: path, configuration: .besideTheLog)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS idempotency_records (
                        scope TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL, response BLOB,
                        created_at REAL NOT NULL, lease_until REAL NOT NULL, PRIMARY KEY (scope, key));
                    CREATE INDEX IF NOT EXISTS idempotency_records_created ON idempotency_records (created_at);
                    """)
        }
    }

    public func claim(scope: String, key: String, requestHash: String, now: Date, leaseUntil: Date) async throws -> IdempotencyClaim {
        try await queue.write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT request_hash, response, lease_until FROM idempotency_records WHERE scope = ? AND key = ?",
                arguments: [scope, key])
            {
                guard row["request_hash"] as String == requestHash else { return .differentRequest }
                if let response = row["response"] as Data? { return .replay(response) }
                guard (row["lease_until"] as Double) < now.timeIntervalSince1970 else { return .inProgress }
                try db.execute(
                    sql: "UPDATE idempotency_records SET lease_until = ? WHERE scope = ? AND key = ?",
                    arguments: [leaseUntil.timeIntervalSince1970, scope, key])
                return .claimed
            }
            try db.execute(
                sql: """
                    INSERT INTO idempotency_records (scope, key, request_hash, created_at, lease_until) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [scope, key, requestHash, now.timeIntervalSince1970, leaseUntil.timeIntervalSince1970])
            return .claimed
        }
    }

    public func finish(scope: String, key: String, response: Data) async throws {
        try await queue.write { db in
            try db.execute(sql: "UPDATE idempotency_records SET response = ? WHERE scope = ? AND key = ?", arguments: [response, scope, key])
        }
    }

    public func release(scope: String, key: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND response IS NULL", arguments: [scope, key])
        }
    }

    public func forget(caller: String) async throws -> Int {
        try await queue.write { db in
            // instr, not LIKE: a caller is matched as a whole word, wildcards and all.
            try db.execute(sql: "DELETE FROM idempotency_records WHERE instr(scope, ' ' || ? || ' ') > 0", arguments: [caller])
            return db.changesCount
        }
    }

    public func purge(before cutoff: Date) async throws -> Int {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM idempotency_records WHERE created_at < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
