import EventLog
import Foundation
import GRDB

/// The event log in one SQLite file: the embedded default for local runs and tests.
///
/// SQLite serializes writers (each append takes the write lock for its whole
/// transaction), and positions come from `AUTOINCREMENT`, so position order is commit
/// order and a reader can never skip an event. Several processes may share the file;
/// they wait for each other's write lock up to `busyTimeout`. Subscribers in this process
/// wake on its appends; appends from other processes are found by polling.
public final class SQLiteEventStore: EventStore {
    public let path: String
    public let changes = ChangeSignal()
    public let pollInterval: Duration
    let pool: DatabasePool

    /// Opens (creating if needed) the log at `path` and migrates it.
    public init(path: String, pollInterval: Duration = .milliseconds(200), busyTimeout: Duration = .seconds(30)) throws {
        self.path = path
        self.pollInterval = pollInterval
        var configuration = Configuration()
        configuration.busyMode = .timeout(TimeInterval(busyTimeout.components.seconds))
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pool = try DatabasePool.openingShared(path: path, configuration: configuration, patience: busyTimeout)
        try SQLiteMigrations.migrate(pool)
    }

    public func shutdown() async {
        try? pool.close()
    }

    // MARK: Appending

    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        guard let name = StreamName(stream) else { throw EventStoreError.invalidStreamName(stream) }
        let rows = try events.map(EventRow.init)
        // The replay comparison runs only when the append cannot go ahead as asked, so the
        // common path is one indexed lookup and the inserts.
        let outcome: AppendOutcome
        do {
            outcome = try await pool.write { db -> AppendOutcome in
                let current = try Int64.fetchOne(db, sql: "SELECT max(version) FROM events WHERE stream = ?", arguments: [stream]) ?? 0
                guard expected.isSatisfied(by: current) else {
                    if let replay = try Self.replayedResult(db, stream: stream, rows: rows) { return .replayed(replay) }
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: current)
                }
                guard !rows.isEmpty else {
                    let head = try Int64.fetchOne(db, sql: "SELECT max(position) FROM events") ?? 0
                    return .appended(
                        AppendResult(streamVersion: current, checkpoint: Checkpoint(transaction: 0, position: head), wasAlreadyAppended: false))
                }
                let now = Date().timeIntervalSince1970
                let insert = try db.cachedStatement(sql: Self.insertSQL)
                do {
                    for (offset, row) in rows.enumerated() {
                        try insert.execute(
                            arguments: row.arguments(
                                stream: stream, category: name.category, version: current + Int64(offset) + 1, recordedAt: now))
                    }
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    throw IdClash() // rolls the batch back; the replay check then reads what was stored before
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
                    throw EventStoreError.invalidEvent(id: events.first?.id ?? UUID(), reason: "the body is not valid JSON")
                }
                return .appended(
                    AppendResult(
                        streamVersion: current + Int64(rows.count), checkpoint: Checkpoint(transaction: 0, position: db.lastInsertedRowID),
                        wasAlreadyAppended: false))
            }
        } catch is IdClash {
            outcome = .idClash
        }
        switch outcome {
        case .appended(let result):
            changes.fire(categories: CollectionOfOne(name.category))
            return result
        case .replayed(let result):
            return result
        case .idClash:
            if let replay = try await pool.read({ db in try Self.replayedResult(db, stream: stream, rows: rows) }) { return replay }
            throw EventStoreError.idempotencyConflict(stream: stream, eventId: events[0].id, reason: "an event id is stored already")
        }
    }

    private struct IdClash: Error {}

    private enum AppendOutcome {
        case appended(AppendResult)
        case replayed(AppendResult)
        /// An id is stored already; the transaction must roll back before the replay check.
        case idClash
    }

    static let insertSQL = """
        INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The original result when every row is stored already as this batch; throws when only some are.
    private static func replayedResult(_ db: Database, stream: String, rows: [EventRow]) throws -> AppendResult? {
        guard !rows.isEmpty else { return nil }
        let stored = try Row.fetchAll(
            db,
            sql:
                "SELECT id, stream, version, type, schema_version, data, position FROM events WHERE id IN (\(databaseQuestionMarks(count: rows.count)))",
            arguments: StatementArguments(rows.map(\.id)))
        guard !stored.isEmpty else { return nil }
        let byId = Dictionary(uniqueKeysWithValues: stored.map { row -> (String, Row) in (row["id"], row) })
        var offsets = Set<Int64>()
        var last: (version: Int64, position: Int64) = (0, 0)
        for (index, row) in rows.enumerated() {
            guard let match = byId[row.id], match["stream"] as String == stream, match["type"] as String == row.type,
                match["schema_version"] as Int == row.schemaVersion,
                EventJSON.sameValue(Data((match["data"] as String).utf8), Data(row.data.utf8))
            else {
                throw EventStoreError.idempotencyConflict(
                    stream: stream, eventId: UUID(uuidString: row.id) ?? UUID(),
                    reason: "\(stored.count) of \(rows.count) events are stored already, not as this batch in this stream")
            }
            let version: Int64 = match["version"]
            offsets.insert(version - Int64(index))
            let position: Int64 = match["position"]
            if version > last.version { last = (version, position) }
        }
        guard offsets.count == 1 else {
            throw EventStoreError.idempotencyConflict(
                stream: stream, eventId: UUID(uuidString: rows[0].id) ?? UUID(), reason: "the stored events are not one batch")
        }
        return AppendResult(streamVersion: last.version, checkpoint: Checkpoint(transaction: 0, position: last.position), wasAlreadyAppended: true)
    }

    // MARK: Reading

    public func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        try await pool.read { db in
            switch direction {
            case .forwards:
                try EventRow.fetch(
                    db, sql: "SELECT \(EventRow.columns) FROM events WHERE stream = ? AND version >= ? ORDER BY version LIMIT ?",
                    arguments: [stream, version ?? 1, limit])
            case .backwards:
                try EventRow.fetch(
                    db, sql: "SELECT \(EventRow.columns) FROM events WHERE stream = ? AND version <= ? ORDER BY version DESC LIMIT ?",
                    arguments: [stream, version ?? Int64.max, limit])
            }
        }
    }

    public func event(id: UUID) async throws -> RecordedEvent? {
        try await pool.read { db in
            try EventRow.fetch(db, sql: "SELECT \(EventRow.columns) FROM events WHERE id = ?", arguments: [id.lowercasedText]).first
        }
    }

    /// A filter on categories is read as one walk of `events_category_order` per category,
    /// merged by position: with `category IN (…)` SQLite walks the index by category and sorts
    /// every later event of those categories to return the first page, so a read from the start
    /// of a large log cost as much as the rest of the log on every page.
    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage {
        var conditions = ""
        var typeArguments: StatementArguments = []
        if let types = filter.types {
            conditions = " AND type IN (\(databaseQuestionMarks(count: types.count)))"
            typeArguments = StatementArguments(Array(types))
        }
        let walks: [(sql: String, arguments: StatementArguments)]
        if let categories = filter.categories {
            walks = categories.sorted().map { category in
                (
                    "SELECT \(EventRow.columns) FROM events WHERE category = ? AND position > ?\(conditions) ORDER BY position LIMIT ?",
                    [category, checkpoint.position] + typeArguments + [limit]
                )
            }
        } else {
            walks = [
                (
                    "SELECT \(EventRow.columns) FROM events WHERE position > ?\(conditions) ORDER BY position LIMIT ?",
                    [checkpoint.position] + typeArguments + [limit]
                )
            ]
        }
        return try await pool.read { [walks] db in
            let events = try EventRow.fetchMerged(db, walks: walks, limit: limit)
            if events.count == limit, let last = events.last { return EventPage(events: events, checkpoint: last.checkpoint) }
            // Same read transaction: nothing below the head can still appear.
            let head = try Int64.fetchOne(db, sql: "SELECT max(position) FROM events") ?? 0
            // One writer commits in position order, so nothing stored is held back.
            return EventPage(events: events, checkpoint: max(checkpoint, Checkpoint(transaction: 0, position: head)), reachedHead: true)
        }
    }

    /// One writer commits in position order, so every stored event is visible: position
    /// alone is the order.
    public func readAllBackwards(before checkpoint: Checkpoint?, limit: Int, filter: EventFilter) async throws -> [RecordedEvent] {
        var sql = "SELECT \(EventRow.columns) FROM events WHERE position < ?"
        var arguments: StatementArguments = [checkpoint?.position ?? Int64.max]
        if let categories = filter.categories {
            sql += " AND category IN (\(databaseQuestionMarks(count: categories.count)))"
            arguments += StatementArguments(categories.sorted())
        }
        if let types = filter.types {
            sql += " AND type IN (\(databaseQuestionMarks(count: types.count)))"
            arguments += StatementArguments(types.sorted())
        }
        sql += " ORDER BY position DESC LIMIT ?"
        arguments += [limit]
        return try await pool.read { [sql, arguments] db in try EventRow.fetch(db, sql: sql, arguments: arguments) }
    }

    public func head() async throws -> Checkpoint {
        let position = try await pool.read { db in try Int64.fetchOne(db, sql: "SELECT max(position) FROM events") ?? 0 }
        return Checkpoint(transaction: 0, position: position)
    }

    /// One writer appends at a time, so what is reached is what is visible; its checkpoints
    /// name no transaction.
    public func hasReached(_ checkpoint: Checkpoint) async throws -> Bool {
        guard checkpoint.transaction == 0 else { return false }
        return checkpoint <= (try await head())
    }

    public func eventCount(after checkpoint: Checkpoint, limit: Int) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM (SELECT 1 FROM events WHERE position > ? LIMIT ?)",
                arguments: [checkpoint.position, limit]) ?? 0
        }
    }

    // MARK: Importing

    public func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult {
        let result = try await pool.write { db -> ImportResult in
            var result = ImportResult()
            let insert = try db.cachedStatement(sql: Self.insertSQL)
            for event in events {
                guard StreamName(event.stream) != nil else { throw EventStoreError.invalidStreamName(event.stream) }
                let id = event.id.lowercasedText
                if let stored = try Row.fetchOne(db, sql: "SELECT stream, version FROM events WHERE id = ?", arguments: [id]) {
                    let stream: String = stored["stream"]
                    let version: Int64 = stored["version"]
                    guard stream == event.stream, version == event.version else {
                        throw EventStoreError.importConflict(eventId: event.id, reason: "stored already as \(stream) version \(version)")
                    }
                    result.alreadyPresent += 1
                    continue
                }
                let row = try EventRow(
                    NewEvent(id: event.id, type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata))
                do {
                    try insert.execute(
                        arguments: row.arguments(
                            stream: event.stream, category: event.category, version: event.version,
                            recordedAt: event.recordedAt.timeIntervalSince1970))
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    throw EventStoreError.importConflict(eventId: event.id, reason: "\(event.stream) already has a version \(event.version)")
                }
                result.imported += 1
            }
            return result
        }
        if result.imported > 0 { changes.fire() }
        return result
    }
}
