import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The event log in one PostgreSQL table.
///
/// Appends are not serialized: each runs as one statement in its own transaction and
/// records `pg_current_xact_id()`. Readers see only rows whose transaction is below
/// `pg_snapshot_xmin(pg_current_snapshot())`, in (transaction id, position) order, so a
/// transaction that commits late is delivered late, never skipped. Subscribers wake on
/// LISTEN/NOTIFY and also poll, so a lost notification costs latency only.
public final class PostgresEventStore: PostgresAppending {
    public let configuration: PostgresEventStoreConfiguration
    public let changes = ChangeSignal()
    public var pollInterval: Duration { configuration.pollInterval }

    let client: PostgresClient
    /// Runs the prepared statements: on the store's own connections when one is free, else on the pool.
    let statements: StatementConnections
    let logger: Logger
    /// For the transactions that run outside the pool (``withDedicatedTransaction(_:logger:_:)``).
    private let connectionConfiguration: PostgresConnection.Configuration
    private let schema: String
    private let clientTask: Task<Void, Never>
    private let listener: NotificationListener
    package let notifier: AppendNotifier
    package let grouper: AppendGrouper

    /// Connects, migrates the schema, and starts listening for appends.
    public init(configuration: PostgresEventStoreConfiguration, logger: Logger = Logger(label: "commons.eventlog.postgres")) async throws {
        try configuration.validate()
        let listenConfiguration = try configuration.connection()
        try await Self.connectOnce(listenConfiguration, logger: logger, patience: configuration.startupPatience)
        self.configuration = configuration
        self.logger = logger
        connectionConfiguration = listenConfiguration
        schema = configuration.schema
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.client = client
        clientTask = Task { await client.run() }
        let statements = StatementConnections(
            client: client, configuration: try configuration.connection(searchPath: true), limit: configuration.statementConnections)
        self.statements = statements
        let channels = NotificationChannels(schema: configuration.schema)
        let origin = NotificationOrigin()
        notifier = AppendNotifier(channels: channels, origin: origin, logger: logger) { notification, sent in
            statements.send(notification, logger: logger, sent: sent)
        }
        grouper = AppendGrouper(slots: configuration.concurrentAppends) { [logger] appends in
            try await statements.execute(AppendGroupStatement(appends: appends), logger: logger)
        }
        listener = NotificationListener(
            configuration: listenConfiguration, channels: channels,
            hearing: configuration.hearsEveryCategory ? .everything : .categoriesAskedAbout, changes: changes, origin: origin, logger: logger)
        do {
            try await PostgresMigrations.migrate(connection: listenConfiguration, schema: schema, logger: logger)
            try await Self.refuseTransactionsFromAnotherCluster(client: client, schema: schema, logger: logger)
        } catch {
            statements.close()
            clientTask.cancel()
            throw error
        }
        listener.start()
    }

    /// Refuses a log whose newest stored transaction id is not below the next one this cluster
    /// will assign. That happens when a log is copied into another cluster with `pg_dump`:
    /// the ids come along, the new cluster's counter does not, and every new event would sort
    /// before the stored checkpoints of every reader and never be delivered. Copies that keep
    /// the counter (a physical backup, a replica promoted) pass; so does `commons events
    /// export` then `import`, which appends afresh.
    static func refuseTransactionsFromAnotherCluster(client: PostgresClient, schema: String, logger: Logger) async throws {
        let query: PostgresQuery = """
            SELECT (SELECT max(transaction_id) FROM \(unescaped: schema).events)::text,
                   pg_snapshot_xmax(pg_current_snapshot())::text
            """
        var stored: String?
        var next = ""
        for try await (newest, counter) in try await client.queryAbandonable(query, logger: logger).decode((String?, String).self) {
            stored = newest
            next = counter
        }
        try refuseCopiedLog(newest: stored, counter: next, schema: schema)
    }

    /// Throws when the log's newest stored transaction id (`newest`, text) is not below the
    /// cluster's next one (`counter`): see ``refuseTransactionsFromAnotherCluster(client:schema:logger:)``.
    package static func refuseCopiedLog(newest stored: String?, counter next: String, schema: String) throws {
        guard let stored, let newest = UInt64(stored), let counter = UInt64(next), newest >= counter else { return }
        throw PostgresEventStoreError(
            """
            the log in schema \(schema) holds events of transaction \(newest), but this PostgreSQL cluster has only reached \(counter): \
            it was copied from another cluster (pg_dump/pg_restore?), and new events would sort before those already read and never \
            be delivered. Move a log with `commons events export` and `commons events import`, or a physical copy of the cluster \
            (pg_basebackup, a promoted replica); see docs/operations.md, "Moving a log"
            """)
    }

    /// Makes one connection and closes it, before the pool starts: a server that refuses us
    /// (a wrong password, a `pg_hba.conf` without us, TLS required or a certificate we do not
    /// trust) fails the start with its own error, where the pool would retry for ever. A
    /// server that is not up yet (refusing connections, starting) is waited for, up to `patience`.
    static func connectOnce(
        _ configuration: PostgresConnection.Configuration, logger: Logger,
        patience: Duration = .seconds(10)
    ) async throws {
        let started = ContinuousClock.now
        var reported = started
        while true {
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 0, logger: logger)
                connection.closeWithoutWaiting()
                return
            } catch let error as PSQLError where Self.isNotUpYet(error) {
                let waited = ContinuousClock.now - started
                guard waited < patience else { throw PostgresNotReachable(waited: waited, underlying: PostgresEventStoreError(error).description) }
                if ContinuousClock.now - reported >= .seconds(10) {
                    logger.warning("PostgreSQL is not up yet; waiting", metadata: ["waited": "\(waited)", "patience": "\(patience)"])
                    reported = .now
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private static func isNotUpYet(_ error: PSQLError) -> Bool {
        if error.code == .connectionError { return true }
        let state = error.serverInfo?[.sqlState] ?? ""
        return state == "57P03" || state.hasPrefix("08")
    }

    /// Stops listening and closes the pool, waiting at most ``shutdownPatience`` for each:
    /// PostgresNIO 1.33's pool does not always end once cancelled (a connection closed under
    /// an unanswered statement stays leased), and a shutdown that waits for it never ends (a
    /// test run once hung here). What does not stop in time is left behind, with a warning.
    public func shutdown() async {
        let (listener, clientTask) = (listener, clientTask)
        statements.close()
        do {
            try await abandonable(patience: Self.shutdownPatience) { await listener.stop() }
            clientTask.cancel()
            try await abandonable(patience: Self.shutdownPatience) { await clientTask.value }
        } catch {
            clientTask.cancel()
            logger.warning("PostgreSQL connections did not close in time; left behind", metadata: ["patience": "\(Self.shutdownPatience)"])
        }
    }

    /// How long ``shutdown()`` waits for the listener, then for the pool.
    static let shutdownPatience = Duration.seconds(10)

    /// How many times the LISTEN connection has been established (for tests and metrics).
    public var listenerConnections: Int { listener.connections }

    /// How many group statements this store has sent (``AppendGrouper``), and how many
    /// single-event appends they carried: what `commons bench eventlog` reports of grouping.
    public var appendGroups: (statements: Int, appends: Int) { (grouper.groupsSent, grouper.appendsGrouped) }

    /// How many of this store's own notifications came back to it and were skipped (for tests).
    public var ownNotificationsSkipped: Int { listener.ownNotificationsSkipped }

    // MARK: Appending

    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        try await appendEvents(to: stream, expected: expected, events: events)
    }

    package func executeAppend(
        _ name: StreamName, expectedCode: Int64, batch encoded: EncodedBatch, carrying: AppendNotifier.Notification?
    ) async throws -> [AppendRow] {
        do {
            return switch (encoded.ids.count, expectedCode) {
            case (1, 0):
                try await execute(AppendFirstStatement(stream: name.description, category: name.category, batch: encoded), carrying: carrying)
            case (1, _):
                try await execute(
                    AppendOneStatement(stream: name.description, category: name.category, expectedCode: expectedCode, batch: encoded),
                    carrying: carrying)
            default:
                try await statements.execute(
                    AppendBatchStatement(stream: name.description, category: name.category, expectedCode: expectedCode, batch: encoded),
                    logger: logger)
            }
        } catch let error as PSQLError {
            throw AppendStatementFailure(
                sqlState: error.serverInfo?[.sqlState], constraint: error.serverInfo?[.constraintName], detail: error.serverInfo?[.detail],
                message: error.serverInfo?[.message], reported: PostgresEventStoreError(error))
        }
    }

    /// Runs a single-event append, with the notification it carries if any.
    private func execute<Append: NotifyingAppend>(_ append: Append, carrying notification: AppendNotifier.Notification?) async throws -> [AppendRow] {
        guard let notification else { return try await statements.execute(append, logger: logger) }
        return try await statements.execute(CarryingNotification(append: append, notification: notification), logger: logger)
    }

    /// The first result when this batch is stored already; nil when none of it is; throws
    /// when only part of it is, or it is stored differently.
    package func replayedResult(stream: String, batch: EncodedBatch) async throws -> AppendResult? {
        let query: PostgresQuery = """
            SELECT stream_version, last_position, last_transaction
            FROM \(unescaped: schema).replayed_append(\(stream), \(batch.ids), \(batch.types), \(batch.schemaVersions), \(batch.data)::jsonb[])
            """
        do {
            let rows = try await client.queryAbandonable(query, logger: logger).decode((Int64?, Int64?, String?).self)
            for try await (version, position, transaction) in rows {
                return AppendResult(row: (version, position, transaction.flatMap { UInt64($0) }), alreadyAppended: true)
            }
            return nil
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "CE002" {
            throw EventStoreError.idempotencyConflict(
                stream: stream, eventId: batch.ids.first ?? UUID(), reason: error.serverInfo?[.detail] ?? "ids already stored")
        }
    }

    // MARK: Reading

    public func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        let limit = Int64(min(limit, Int(Int64.max)))
        return switch direction {
        case .forwards:
            try await statements.collect(ReadForwardsStatement(stream: stream, version: version ?? 1, limit: limit), logger: logger)
        case .backwards:
            try await statements.collect(
                ReadBackwardsStatement(stream: stream, version: version ?? Int64.max, limit: limit), logger: logger)
        }
    }

    public func event(id: UUID) async throws -> RecordedEvent? {
        try await statements.execute(EventByIDStatement(id: id), logger: logger).first
    }

    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage {
        let count = Int64(min(limit, Int(Int64.max)))
        let rows =
            switch (filter.categories.map(Array.init), filter.types.map(Array.init)) {
            case (nil, nil):
                try await statements.collect(ReadAllStatement.All(checkpoint: checkpoint, limit: count), logger: logger)
            case (let categories?, nil):
                try await statements.collect(
                    ReadAllStatement.Categories(checkpoint: checkpoint, categories: categories, limit: count), logger: logger)
            case (nil, let types?):
                try await statements.collect(ReadAllStatement.Types(checkpoint: checkpoint, types: types, limit: count), logger: logger)
            case (let categories?, let types?):
                try await statements.collect(
                    ReadAllStatement.CategoriesAndTypes(checkpoint: checkpoint, categories: categories, types: types, limit: count),
                    logger: logger)
            }
        return Self.page(of: rows.map { ($0.horizon, $0.heldBack, $0.event) }, after: checkpoint, limit: limit)
    }

    /// With the keys in the same statement where the filter is by categories alone (every
    /// projection's is); otherwise the page alone.
    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter, keysNamedBy keyTypes: Set<String>) async throws -> EventPage {
        guard !keyTypes.isEmpty, let categories = filter.categories, filter.types == nil else {
            return try await readAll(after: checkpoint, limit: limit, filter: filter)
        }
        let statement = ReadAllStatement.CategoriesWithKeys(
            checkpoint: checkpoint, categories: Array(categories), limit: Int64(min(limit, Int(Int64.max))), keyTypes: Array(keyTypes))
        let rows = try await statements.collect(statement, logger: logger)
        var page = Self.page(of: rows.map { ($0.horizon, $0.heldBack, $0.event) }, after: checkpoint, limit: limit)
        var keys: [UUID: Data?] = [:]
        for row in rows { if let cell = row.keys { try ReadAllStatement.storedKeys(cell, into: &keys) } }
        page.storedKeys = keys
        return page
    }

    /// The page that rows of a read of the whole log make.
    package static func page(
        of rows: [(horizon: UInt64?, heldBack: Bool?, event: RecordedEvent?)], after checkpoint: Checkpoint, limit: Int
    ) -> EventPage {
        let horizon = rows.first?.horizon ?? 0
        let events = rows.compactMap(\.event)
        // A full page may stop short of the horizon; otherwise everything below the horizon
        // has been scanned, and (horizon, 0) is before every event of that transaction.
        let scanned = events.count == limit ? events[events.count - 1].checkpoint : max(Checkpoint(transaction: horizon, position: 0), checkpoint)
        let heldBack = rows.first?.heldBack ?? true
        return EventPage(events: events, checkpoint: max(scanned, checkpoint), reachedHead: events.count < limit && !heldBack)
    }

    public func readAllBackwards(before checkpoint: Checkpoint?, limit: Int, filter: EventFilter) async throws -> [RecordedEvent] {
        let statement = ReadAllBackwardsStatement(
            before: checkpoint, categories: filter.categories?.sorted(), types: filter.types?.sorted(), limit: Int64(min(limit, Int(Int64.max))))
        return try await statements.execute(statement, logger: logger)
    }

    public func head() async throws -> Checkpoint {
        try await statements.execute(HeadStatement(), logger: logger).first ?? .start
    }

    public func hasReached(_ checkpoint: Checkpoint) async throws -> Bool {
        try await statements.execute(ReachedStatement(checkpoint: checkpoint), logger: logger).first ?? false
    }

    public func eventCount(after checkpoint: Checkpoint, limit: Int) async throws -> Int {
        let statement = CountAfterStatement(checkpoint: checkpoint, limit: Int64(limit))
        return Int(try await statements.execute(statement, logger: logger).first ?? 0)
    }

    /// Seconds since the oldest transaction that holds an id began: it holds delivery back.
    public func oldestOpenTransactionAge() async throws -> Double {
        let query: PostgresQuery = """
            SELECT coalesce(extract(epoch FROM now() - min(xact_start)), 0)::float8 FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL
            """
        for try await age in try await client.queryAbandonable(query, logger: logger).decode(Double.self) { return age }
        return 0
    }

    // MARK: Importing

    public func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult {
        guard !events.isEmpty else { return ImportResult() }
        let batch = try EncodedBatch(
            events.map {
                NewEvent(id: $0.id, type: $0.type, schemaVersion: $0.schemaVersion, data: $0.data, metadata: $0.metadata)
            })
        let streams = events.map(\.stream)
        for stream in streams where StreamName(stream) == nil { throw EventStoreError.invalidStreamName(stream) }
        let categories = events.map(\.category)
        let versions = events.map(\.version)
        let times = events.map(\.recordedAt)
        do {
            return try await retryingLostConnections(logger: logger) { [schema, logger, connectionConfiguration] in
                try await withDedicatedTransaction(connectionConfiguration, logger: logger) { connection in
                    var present = Set<UUID>()
                    let existing: PostgresQuery = "SELECT id, stream, version FROM \(unescaped: schema).events WHERE id = ANY(\(batch.ids))"
                    var wanted: [UUID: (String, Int64)] = [:]
                    for event in events { wanted[event.id] = (event.stream, event.version) }
                    for try await (id, stream, version) in try await connection.query(existing, logger: logger)
                        .decode((UUID, String, Int64).self)
                    {
                        guard let expected = wanted[id], expected == (stream, version) else {
                            throw EventStoreError.importConflict(eventId: id, reason: "stored already as \(stream) version \(version)")
                        }
                        present.insert(id)
                    }
                    let keep = events.indices.filter { !present.contains(events[$0].id) }
                    // A place (stream, version) that holds another event already: name the event.
                    let clashes: PostgresQuery = """
                        SELECT n.id, n.stream, n.version FROM unnest(\(keep.map { batch.ids[$0] }), \(keep.map { streams[$0] }), \(keep.map { versions[$0] }))
                            AS n(id, stream, version)
                        JOIN \(unescaped: schema).events e ON e.stream = n.stream AND e.version = n.version
                        LIMIT 1
                        """
                    for try await (id, stream, version) in try await connection.query(clashes, logger: logger).decode((UUID, String, Int64).self) {
                        throw EventStoreError.importConflict(eventId: id, reason: "\(stream) already has a version \(version)")
                    }
                    if !keep.isEmpty {
                        let insert: PostgresQuery = """
                            INSERT INTO \(unescaped: schema).events (stream, category, version, id, type, schema_version, data, metadata, recorded_at)
                            SELECT n.stream, n.category, n.version, n.id, n.type, n.schema_version, n.data, n.metadata, n.recorded_at
                            FROM unnest(\(keep.map { streams[$0] }), \(keep.map { categories[$0] }), \(keep.map { versions[$0] }),
                                        \(keep.map { batch.ids[$0] }), \(keep.map { batch.types[$0] }), \(keep.map { batch.schemaVersions[$0] }),
                                        \(keep.map { batch.data[$0] })::jsonb[], \(keep.map { batch.metadata[$0] })::jsonb[], \(keep.map { times[$0] }))
                                 WITH ORDINALITY AS n(stream, category, version, id, type, schema_version, data, metadata, recorded_at, ord)
                            ORDER BY n.ord
                            """
                        try await connection.query(insert, logger: logger)
                    }
                    return ImportResult(imported: keep.count, alreadyPresent: present.count)
                }
            }
        } catch {
            throw Self.mapImport(error, batch: events)
        }
    }

    private static func mapImport(_ error: any Error, batch: [RecordedEvent]) -> any Error {
        guard let error = error as? PSQLError else { return error }
        if error.serverInfo?[.sqlState] == "23505", let first = batch.first {
            // Only a concurrent import can get here; the clash check above names the event otherwise.
            return EventStoreError.importConflict(eventId: first.id, reason: error.serverInfo?[.detail] ?? "duplicate key")
        }
        return PostgresEventStoreError(error)
    }
}

/// A database failure that is not part of the event-log contract, with PostgreSQL's own words.
/// PostgreSQL did not come up (refused connections, was starting) within the store's
/// ``PostgresEventStoreConfiguration/startupPatience``: an outage, not a wrong setting, so a
/// supervisor starting the process again is right.
public struct PostgresNotReachable: Error, CustomStringConvertible {
    public let waited: Duration
    public let underlying: String
    public var description: String { "PostgreSQL was not reachable for \(waited): \(underlying)" }
}

public struct PostgresEventStoreError: Error, CustomStringConvertible {
    public let description: String
    /// The driver's error this one reports, if any: ``PostgresAvailability`` reads it.
    public let underlying: PSQLError?
    package init(_ description: String) {
        self.description = description
        underlying = nil
    }
    init(_ error: PSQLError) {
        let state = error.serverInfo?[.sqlState] ?? "?"
        let message = error.serverInfo?[.message] ?? String(reflecting: error)
        description = "PostgreSQL \(state): \(message)"
        underlying = error
    }
}
