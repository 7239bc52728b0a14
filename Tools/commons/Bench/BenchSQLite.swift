import EventLog
import EventLogSQLite
import Foundation
import GRDB
import ReadModel

/// The SQLite cases: rebuilding a projection from the embedded log, and appending to it,
/// each against plain GRDB writes of the same rows into a fresh file.
struct SQLiteBench: Sendable {
    let directory: URL
    let duration: Duration

    /// Cases 6 and 7.
    func cases() async throws -> [BenchRow] {
        [try await projection(), try await append()]
    }

    private func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    // MARK: Projection

    /// Rebuilds a read model from a log of 200,000 events, against inserting the rows the
    /// projection writes in transactions of 2,000 (the rebuild's page size).
    private func projection() async throws -> BenchRow {
        let logPath = path("projection-log-\(UUID().uuidString).sqlite")
        let store = try SQLiteEventStore(path: logPath)
        defer { Self.remove(logPath) }
        let streams = 2_000
        Bench.note("filling a SQLite log with \(streams * 100) events")
        let progress = ProgressReport("bench")
        for stream in 0..<streams {
            _ = try await store.append(to: "\(BenchEvent.category)-p\(stream)", expected: .noStream, events: BenchEvent.batch(100))
            progress.advance(by: 100, of: streams * 100)
        }
        progress.finish(done: progress.done)
        let rows = (0..<streams).flatMap { stream in
            (1...100).map { BenchReadModelRow(stream: "\(BenchEvent.category)-p\(stream)", version: Int64($0), type: BenchEvent.type) }
        }

        Bench.note("projection into SQLite")
        let ours = try await Bench.measure(for: duration) { [directory] _ in
            var pass = 0
            return {
                pass += 1
                let file = directory.appendingPathComponent("rebuild-\(pass).sqlite").path
                let applied = try await ReadModelRebuild.rebuild(projections: [BenchProjection()], from: store, into: file)
                Self.remove(file)
                return applied
            }
        }
        await store.shutdown()
        let ceiling = try await Bench.measure(for: duration) { [directory] _ in
            var pass = 0
            return {
                pass += 1
                let file = directory.appendingPathComponent("ceiling-\(pass).sqlite").path
                let pool = try ReadModelDatabase.open(path: file, projections: [BenchProjection()])
                for start in stride(from: 0, to: rows.count, by: 2_000) {
                    try await pool.write { db in
                        for row in rows[start..<min(start + 2_000, rows.count)] { try BenchProjection.insert(row, in: db) }
                    }
                }
                try pool.close()
                Self.remove(file)
                return rows.count
            }
        }
        return BenchRow(name: "projection rebuild into SQLite (\(rows.count) events)", ours: ours, ceiling: ceiling, aim: .rate(50_000))
    }

    // MARK: Appending

    /// Single-event appends to the embedded log, against one-row insert transactions into a
    /// copy of its table, opened as the store opens its file.
    private func append() async throws -> BenchRow {
        Bench.note("SQLite append")
        let logPath = path("append-log-\(UUID().uuidString).sqlite")
        let store = try SQLiteEventStore(path: logPath)
        defer { Self.remove(logPath) }
        let ours = try await Bench.measure(for: duration) { _ in
            var cursor = BenchStreamCursor("\(BenchEvent.category)-s.")
            return {
                let (stream, version) = cursor.advance(by: 1)
                _ = try await store.append(to: stream, expected: .exact(version), events: BenchEvent.batch(1))
                return 1
            }
        }
        await store.shutdown()

        let ceilingPath = path("append-ceiling-\(UUID().uuidString).sqlite")
        defer { Self.remove(ceilingPath) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(path: ceilingPath, configuration: configuration)
        // The log's own table and indexes, read from its file, under another name.
        let schema = try await DatabaseQueue(path: logPath).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND sql IS NOT NULL ORDER BY type DESC")
        }
        try await pool.write { db in
            for statement in schema { try db.execute(sql: statement.replacingOccurrences(of: "events", with: "ceiling")) }
        }
        let ceiling = try await Bench.measure(for: duration) { _ in
            var cursor = BenchStreamCursor("\(BenchEvent.category)-s.")
            return {
                let (stream, version) = cursor.advance(by: 1)
                let id = UUID().lowercasedText
                let now = Date().timeIntervalSince1970
                try await pool.write { db in
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO ceiling (stream, category, version, id, type, schema_version, data, metadata, recorded_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """
                    ).execute(arguments: [
                        stream, BenchEvent.category, version + 1, id, BenchEvent.type, 1,
                        BenchEvent.body, BenchEvent.metadataJSON, now,
                    ])
                }
                return 1
            }
        }
        try pool.close()
        return BenchRow(name: "SQLite append, 1 writer, 1 event per append", ours: ours, ceiling: ceiling)
    }

    /// Removes a SQLite file with its WAL and shared-memory files.
    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// A row of the benchmark's read model.
struct BenchReadModelRow: Sendable {
    var stream: String
    var version: Int64
    var type: String
}

/// The smallest projection that does real work: one row per event.
struct BenchProjection: Projection {
    var name: String { "bench" }
    var filter: EventFilter { .all }

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("bench-events-v1") { db in
            try db.execute(sql: "CREATE TABLE bench_events (stream TEXT NOT NULL, version INTEGER NOT NULL, type TEXT NOT NULL)")
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        try Self.insert(BenchReadModelRow(stream: event.stream, version: event.version, type: event.type), in: db)
    }

    /// The one insert both the projection and its ceiling run.
    static func insert(_ row: BenchReadModelRow, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO bench_events (stream, version, type) VALUES (?, ?, ?)")
            .execute(arguments: [row.stream, row.version, row.type])
    }
}
