import GRDB

/// The projections of a read model that are loading in bulk: begun
/// (``Projection/beginBulkLoad(in:)``) and not yet ended (``Projection/endBulkLoad(in:)``).
/// A load cut short (a crash, a shutdown, a failing event) leaves its row, so the next load
/// goes on in bulk from the stored checkpoint and ends it: a projection never follows the log
/// live with its indexes still deferred.
enum ProjectionBulkLoads {
    static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("commons-projection-bulk-loads-v1") { db in
            try db.execute(sql: "CREATE TABLE projection_bulk_loads (projection TEXT PRIMARY KEY, started_at REAL NOT NULL)")
        }
    }

    /// Whether `projection` began a bulk load that has not ended.
    static func isLoading(_ db: Database, projection: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM projection_bulk_loads WHERE projection = ?)", arguments: [projection])
            ?? false
    }

    /// Begins a bulk load of `projection`, in the caller's transaction.
    static func begin(_ db: Database, projection: any Projection) throws {
        try projection.beginBulkLoad(in: db)
        try db.execute(
            sql: "INSERT INTO projection_bulk_loads (projection, started_at) VALUES (?, julianday('now'))", arguments: [projection.name])
    }

    /// Ends the bulk load of `projection`, in the caller's transaction.
    static func end(_ db: Database, projection: any Projection) throws {
        try projection.endBulkLoad(in: db)
        try db.execute(sql: "DELETE FROM projection_bulk_loads WHERE projection = ?", arguments: [projection.name])
    }
}
