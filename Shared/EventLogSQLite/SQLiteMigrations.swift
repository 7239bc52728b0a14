import GRDB

/// The log's schema in SQLite. Several processes may open one file at once, so the
/// migrations run inside one immediate (write-locked) transaction that first reads
/// which have been applied; a shipped migration never changes.
enum SQLiteMigrations {
    static let all: [[String]] = [
        [
            """
            CREATE TABLE events (
                position INTEGER PRIMARY KEY AUTOINCREMENT,
                stream TEXT NOT NULL,
                category TEXT NOT NULL,
                version INTEGER NOT NULL CHECK (version > 0),
                id TEXT NOT NULL UNIQUE,
                type TEXT NOT NULL,
                schema_version INTEGER NOT NULL CHECK (schema_version > 0),
                data TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
                metadata TEXT NOT NULL CHECK (json_valid(metadata)),
                recorded_at REAL NOT NULL,
                UNIQUE (stream, version)
            )
            """,
            "CREATE INDEX events_category_order ON events (category, position)",
        ]
    ]

    static func migrate(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
            let applied = try Int.fetchOne(db, sql: "SELECT coalesce(max(version), 0) FROM schema_migrations") ?? 0
            for (index, statements) in all.enumerated() where index + 1 > applied {
                for statement in statements { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO schema_migrations (version, applied_at) VALUES (?, julianday('now'))", arguments: [index + 1])
            }
        }
    }
}

extension Configuration {
    /// For a file beside the log that several processes write: they wait for each other's
    /// write locks (up to 30 s) instead of failing with "database is locked".
    static var besideTheLog: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        return configuration
    }
}
