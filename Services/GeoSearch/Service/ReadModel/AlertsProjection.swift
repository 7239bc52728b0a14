import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// Saved searches and how far each owner has read their matches.
///
/// Tables: `geo_alerts` (one row per live alert, its criteria still sealed, and where in the
/// log it was made: only listings posted after that can match) and `geo_alert_reads` (per
/// owner, the checkpoint of the last match they read). Matches are not stored: they are the
/// listings of `geo_listings` posted after both points that an alert's criteria cover, found
/// when asked. An `AccountDeleted` removes the owner's alerts and reads.
struct AlertsProjection: Projection {
    let name = "geo-search.alerts"
    let filter = EventFilter(categories: ["alert", "alertreads", "account"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("geo-search-alerts-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE geo_alerts (
                        alert_id TEXT PRIMARY KEY,
                        owner_id TEXT NOT NULL,
                        criteria TEXT NOT NULL,
                        created_tx INTEGER NOT NULL,
                        created_pos INTEGER NOT NULL,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX geo_alerts_by_owner ON geo_alerts (owner_id);
                    CREATE TABLE geo_alert_reads (
                        owner_id TEXT PRIMARY KEY,
                        read_tx INTEGER NOT NULL,
                        read_pos INTEGER NOT NULL
                    );
                    """)
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        switch try CommonsEvents.catalog.decode(event) {
        case let created as AlertCreated:
            let criteria = String(decoding: try JSONEncoder().encode(created.criteria), as: UTF8.self)
            try db.execute(
                sql: """
                    INSERT INTO geo_alerts (alert_id, owner_id, criteria, created_tx, created_pos, created_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (alert_id) DO NOTHING
                    """,
                arguments: [
                    key(created.alertId), key(created.ownerId), criteria,
                    Int64(bitPattern: event.checkpoint.transaction), event.checkpoint.position,
                    created.createdAt.timeIntervalSince1970,
                ])
        case let deleted as AlertDeleted:
            try db.execute(sql: "DELETE FROM geo_alerts WHERE alert_id = ?", arguments: [key(deleted.alertId)])
        case let read as AlertMatchesRead:
            // A marker that does not parse was not written by geo-search; it moves nothing.
            guard let upTo = Checkpoint(read.upTo) else { return }
            try db.execute(
                sql: """
                    INSERT INTO geo_alert_reads (owner_id, read_tx, read_pos) VALUES (?, ?, ?)
                    ON CONFLICT (owner_id) DO UPDATE SET read_tx = excluded.read_tx, read_pos = excluded.read_pos
                    WHERE (excluded.read_tx, excluded.read_pos) > (geo_alert_reads.read_tx, geo_alert_reads.read_pos)
                    """, arguments: [key(read.ownerId), Int64(bitPattern: upTo.transaction), upTo.position])
        case let deleted as AccountDeleted:
            try db.execute(sql: "DELETE FROM geo_alerts WHERE owner_id = ?", arguments: [key(deleted.accountId)])
            try db.execute(sql: "DELETE FROM geo_alert_reads WHERE owner_id = ?", arguments: [key(deleted.accountId)])
        default:
            break
        }
    }

    private func key(_ id: UUID) -> String { id.lowercasedText }
}
