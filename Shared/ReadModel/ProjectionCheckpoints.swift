import EventLog
import GRDB

/// The checkpoint table every read model has: one row per projection.
enum ProjectionCheckpoints {
    static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("commons-projection-checkpoints-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE projection_checkpoints (
                        projection TEXT PRIMARY KEY,
                        transaction_id INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        updated_at REAL NOT NULL
                    )
                    """)
        }
    }

    static func load(_ db: Database, projection: String) throws -> Checkpoint {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT transaction_id, position FROM projection_checkpoints WHERE projection = ?", arguments: [projection])
        else { return .start }
        let transaction: Int64 = row["transaction_id"]
        return Checkpoint(transaction: UInt64(bitPattern: transaction), position: row["position"])
    }

    static func save(_ db: Database, projection: String, checkpoint: Checkpoint) throws {
        try db.executeCached(
            sql: """
                INSERT INTO projection_checkpoints (projection, transaction_id, position, updated_at)
                VALUES (?, ?, ?, julianday('now'))
                ON CONFLICT (projection) DO UPDATE SET transaction_id = excluded.transaction_id,
                    position = excluded.position, updated_at = excluded.updated_at
                """, arguments: [projection, Int64(bitPattern: checkpoint.transaction), checkpoint.position])
    }
}
