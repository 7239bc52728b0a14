import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// The sessions of each account, for "my sessions" and for ending them all.
struct SessionsProjection: Projection {
    let name = "accounts.sessions"
    let filter = EventFilter(categories: ["session", "account"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("sessions-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sessions (
                        session_id TEXT PRIMARY KEY,
                        account_id TEXT NOT NULL,
                        device TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        last_used_at REAL NOT NULL,
                        revoked INTEGER NOT NULL DEFAULT 0
                    )
                    """)
            try db.execute(sql: "CREATE INDEX sessions_by_account ON sessions (account_id, started_at)")
        }
        // Device names are sealed from schema 2 of SessionStarted on: kept sealed here too,
        // opened when their owner lists their sessions.
        migrator.registerMigration("sessions-v2-sealed-device") { db in
            try db.execute(sql: "ALTER TABLE sessions ADD COLUMN sealed_device TEXT")
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        switch try CommonsEvents.catalog.decode(event) {
        case let started as SessionStarted:
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO sessions (session_id, account_id, device, sealed_device, started_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    started.sessionId.lowercasedText, started.accountId.lowercasedText, started.clearDevice ?? "",
                    try started.device.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
                    started.startedAt.timeIntervalSince1970, started.startedAt.timeIntervalSince1970,
                ])
        case let refreshed as SessionRefreshed:
            try db.execute(
                sql: "UPDATE sessions SET last_used_at = ? WHERE session_id = ?",
                arguments: [refreshed.at.timeIntervalSince1970, refreshed.sessionId.lowercasedText])
        case let revoked as SessionRevoked:
            try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE session_id = ?", arguments: [revoked.sessionId.lowercasedText])
        case let deleted as AccountDeleted:
            // The device names say something about the person: they go with the account.
            try db.execute(sql: "DELETE FROM sessions WHERE account_id = ?", arguments: [deleted.accountId.lowercasedText])
        default:
            break
        }
    }
}

extension SessionsProjection {
    /// The live sessions of `account`, oldest first, by the read model (for the cap on them,
    /// ``SessionCap``). Rows are inserted in the log's order, so their rowids are the order
    /// the sessions started in, on every replica and after a rebuild alike.
    static func live(of account: UUID, in readModel: ReadModelDatabase) async throws -> [UUID] {
        try await readModel.pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT session_id FROM sessions WHERE account_id = ? AND revoked = 0 ORDER BY rowid",
                arguments: [account.lowercasedText]
            ).compactMap { UUID(uuidString: $0) }
        }
    }
}
