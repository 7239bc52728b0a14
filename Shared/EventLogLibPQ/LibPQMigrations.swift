import EventLogPostgres
import Foundation
import Logging

/// Runs the log's migrations (``LogStatementText/migrations``, the PostgresNIO store's own)
/// on a libpq connection: in one transaction under the same advisory lock, so both stores,
/// and any number of processes, may start on one log at once.
enum LibPQMigrations {
    static func migrate(_ pool: LibPQPool, schema: String, logger: Logger) async throws {
        let applied = try await pool.session { connection in
            try connection.execute("BEGIN")
            do {
                let applied = try migrateOnce(connection, schema: schema)
                try connection.execute("COMMIT")
                return applied
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
        for version in applied { logger.info("event log migrated", metadata: ["schema": "\(schema)", "version": "\(version)"]) }
    }

    /// The versions it applied.
    private static func migrateOnce(_ connection: LibPQConnection, schema: String) throws -> [Int] {
        try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(LogStatementText.migrationLock(schema: schema))])
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(schema).schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        let current = try connection.execute("SELECT coalesce(max(version), 0) FROM \(schema).schema_migrations") {
            try $0.integer(0, 0, as: Int32.self) ?? 0
        }
        var applied: [Int] = []
        for (index, statements) in LogStatementText.migrations.enumerated() where index + 1 > current {
            for statement in statements { try connection.execute(statement.replacingOccurrences(of: "{schema}", with: schema)) }
            try connection.execute("INSERT INTO \(schema).schema_migrations (version) VALUES (\(index + 1))")
            applied.append(index + 1)
        }
        return applied
    }
}
