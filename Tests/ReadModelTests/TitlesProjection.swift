import EventLog
import Foundation
import GRDB
import ReadModel

/// A small read model for tests: the latest title per stream. An event of type `Poison`
/// cannot be applied.
struct TitlesProjection: Projection {
    let name = "titles"
    let filter = EventFilter(categories: ["item"])

    struct Unreadable: Error {}

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("titles-v1") { db in
            try db.execute(sql: "CREATE TABLE titles (stream TEXT PRIMARY KEY, title TEXT NOT NULL, version INTEGER NOT NULL)")
        }
        migrator.registerMigration("titles-v2") { db in try db.execute(sql: Self.index) }
    }

    static let index = "CREATE INDEX IF NOT EXISTS titles_by_title ON titles (title)"

    /// A bulk load builds the index once, at the end.
    func beginBulkLoad(in db: Database) throws {
        try db.execute(sql: "DROP INDEX IF EXISTS titles_by_title")
    }

    func endBulkLoad(in db: Database) throws {
        try db.execute(sql: Self.index)
    }

    /// Whether the index is there (not deferred by a bulk load).
    static func isIndexed(in pool: DatabasePool) throws -> Bool {
        try pool.read { db in try db.indexes(on: "titles").contains { $0.name == "titles_by_title" } }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        guard event.type != "Poison" else { throw Unreadable() }
        let body = try JSONSerialization.jsonObject(with: event.data) as? [String: Int] ?? [:]
        try db.execute(
            sql: """
                INSERT INTO titles (stream, title, version) VALUES (?, ?, ?)
                ON CONFLICT (stream) DO UPDATE SET title = excluded.title, version = excluded.version
                """, arguments: [event.stream, "title \(body["n"] ?? 0)", event.version])
    }

    static func titles(in pool: DatabasePool) throws -> [String: String] {
        try pool.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT stream, title FROM titles").map { row -> (String, String) in
                    (row["stream"], row["title"])
                })
        }
    }
}

func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("commons-readmodel-\(UUID().uuidString)", isDirectory: true)
}
