import EventLog
import EventLogLibPQ
import EventLogPostgres
import EventLogSQLite
import Foundation
import GRDB
import Logging
import NIOPosix
import PostgresNIO
import Testing

/// The SQLite log file of a SQLite test log, for tests that start processes on it.
extension TestLog {
    public var sqliteFile: String? { sqlitePath }

    /// What `COMMONS_EVENT_STORE` holds for a process to open this log: the SQLite file's
    /// path, or the PostgreSQL URL with `?schema=<this log's schema>`.
    public var eventStoreValue: String {
        guard let postgres else { return sqlitePath! }
        var url = URLComponents()
        url.scheme = "postgres"
        url.user = postgres.username
        url.password = postgres.password
        url.host = postgres.host
        url.port = postgres.port
        url.path = "/" + postgres.database
        url.queryItems = [URLQueryItem(name: "schema", value: postgres.schema)]
        return url.string!
    }
}

/// The event-log backends: PostgreSQL and SQLite, which every test that takes a backend runs
/// on (``allCases``), and PostgreSQL on libpq, which the event log's own contract tests run on
/// too (``logBackends``) while it is measured beside the PostgresNIO store (issue 58).
public enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// PostgreSQL through PostgresNIO (`PostgresEventStore`).
    case postgres
    /// PostgreSQL through libpq (`LibPQEventStore`), on the same log.
    case libpq
    case sqlite

    /// The backends the services' tests run on: one PostgreSQL store, and SQLite.
    public static var allCases: [Backend] { [.postgres, .sqlite] }

    /// The backends the event log's contract tests run on: both PostgreSQL stores, and SQLite.
    public static let logBackends: [Backend] = [.postgres, .libpq, .sqlite]

    /// Whether the log is in PostgreSQL, whichever driver.
    public var isPostgreSQL: Bool { self != .sqlite }

    public var testDescription: String { rawValue }

    /// A fresh, empty log of this kind: its own PostgreSQL schema or its own SQLite file.
    /// On PostgreSQL, the server at `postgresURL` unless the tests' own.
    ///
    /// A test that holds a transaction open for seconds passes `holdsTransactions`: on
    /// PostgreSQL it then gets a cluster of its own (``ThrowawayPostgres``, removed by
    /// ``TestLog/close()``). The log's visibility horizon is cluster-wide, so such a
    /// transaction would hold back what every other test reads right after it writes.
    public func makeLog(
        pollInterval: Duration = .milliseconds(100), postgresURL: String? = nil,
        holdsTransactions: Bool = false
    ) async throws -> TestLog {
        switch self {
        case .postgres, .libpq:
            let cluster = holdsTransactions ? try await ThrowawayPostgres.start() : nil
            do {
                var configuration = try Self.freshSchema(url: cluster?.url ?? postgresURL)
                configuration.pollInterval = pollInterval
                return try await TestLog(postgres: configuration, backend: self, cluster: cluster)
            } catch {
                await cluster?.destroy()
                throw error
            }
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("commons-tests-\(UUID().uuidString)", isDirectory: true)
                .appendingPathComponent("events.sqlite").path
            return try TestLog(sqlitePath: path, pollInterval: pollInterval)
        }
    }

    /// A configuration for a log in a schema of its own (`<prefix>_` and 8 random hex digits)
    /// on the server at `url`, the tests' server by default.
    public static func freshSchema(_ prefix: String = "t", url: String? = nil) throws -> PostgresEventStoreConfiguration {
        var configuration = try PostgresEventStoreConfiguration(url: try url ?? postgresURL())
        configuration.schema = prefix + "_" + UUID().uuidString.prefix(8).lowercased()
        return configuration
    }

    public static func postgresURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["COMMONS_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw TestSetupError("COMMONS_TEST_POSTGRES_URL is not set: run the tests with `make test`, which starts a throwaway PostgreSQL")
        }
        return url
    }
}

public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One isolated log, with what the contract tests need beyond the ``EventStore`` API:
/// a second, independent store on the same log (another process, as far as
/// notifications go) and a raw transaction that appends and then waits.
public final class TestLog: Sendable {
    public let store: any EventStore
    public let backend: Backend
    /// The secret that wraps the personal-data keys of this log, as every service on it is given it.
    public let keyVaultSecret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
    /// What a service on this log needs in its environment beyond its own settings.
    public var serviceEnvironment: [String: String] { ["COMMONS_KEY_VAULT_SECRET": keyVaultSecret] }
    private let postgres: PostgresEventStoreConfiguration?
    private let sqlitePath: String?
    /// The cluster of the log's own, when it holds transactions (see ``Backend/makeLog(pollInterval:postgresURL:holdsTransactions:)``).
    private let cluster: ThrowawayPostgres?

    init(postgres configuration: PostgresEventStoreConfiguration, backend: Backend = .postgres, cluster: ThrowawayPostgres? = nil) async throws {
        self.backend = backend
        postgres = configuration
        sqlitePath = nil
        self.cluster = cluster
        store = try await Self.postgresStore(configuration, backend: backend)
    }

    /// A store of `backend`, a PostgreSQL one, on the log `configuration` names.
    private static func postgresStore(_ configuration: PostgresEventStoreConfiguration, backend: Backend) async throws -> any EventStore {
        if backend == .libpq { return try await LibPQEventStore(configuration: configuration, logger: Logger(label: "test")) }
        return try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
    }

    init(sqlitePath: String, pollInterval: Duration) throws {
        backend = .sqlite
        postgres = nil
        self.sqlitePath = sqlitePath
        cluster = nil
        store = try SQLiteEventStore(path: sqlitePath, pollInterval: pollInterval)
    }

    /// Another store on the same log that shares nothing in memory with `store`; on
    /// PostgreSQL, one that hears only the categories its readers ask about when
    /// `hearsEveryCategory` is false (as the services' stores do).
    public func independentStore(hearsEveryCategory: Bool = true) async throws -> any EventStore {
        if var postgres {
            postgres.hearsEveryCategory = hearsEveryCategory
            return try await Self.postgresStore(postgres, backend: backend)
        }
        return try SQLiteEventStore(path: sqlitePath!, pollInterval: store.pollInterval)
    }

    /// Appends `events` to `stream` (expected: any) inside a transaction that stays open for
    /// `hold`, then commits or rolls back. Returns once the transaction has ended.
    public func appendInTransaction(
        stream: String, events: [NewEvent], hold: Duration, commit: Bool, afterInsert: @escaping @Sendable () -> Void = {}
    ) async throws {
        if let postgres {
            let connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(),
                configuration: .init(
                    host: postgres.host, port: postgres.port, username: postgres.username,
                    password: postgres.password, database: postgres.database, tls: .disable),
                id: 1, logger: Logger(label: "test"))
            defer { Task { try? await connection.close() } }
            try await connection.query("BEGIN", logger: Logger(label: "test"))
            let category = RecordedEvent.category(of: stream)
            let ids = events.map(\.id)
            let types = events.map(\.type)
            let versions = events.map { Int32($0.schemaVersion) }
            let data = events.map { String(decoding: $0.data, as: UTF8.self) }
            let metadata = events.map { _ in "{}" }
            try await connection.query(
                """
                SELECT * FROM \(unescaped: postgres.schema).append_events(\(stream), \(category), -1, \(ids), \(types), \(versions),
                    \(data)::jsonb[], \(metadata)::jsonb[])
                """, logger: Logger(label: "test"))
            afterInsert()
            try await Task.sleep(for: hold)
            try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: Logger(label: "test"))
            try await connection.close()
        } else {
            var configuration = Configuration()
            configuration.busyMode = .timeout(60)
            let queue = try DatabaseQueue(path: sqlitePath!, configuration: configuration)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                let current = try Int64.fetchOne(db, sql: "SELECT max(version) FROM events WHERE stream = ?", arguments: [stream]) ?? 0
                for (offset, event) in events.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata, recorded_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, '{}', 0)
                            """,
                        arguments: [
                            stream, RecordedEvent.category(of: stream), current + Int64(offset) + 1,
                            event.id.uuidString.lowercased(), event.type, event.schemaVersion,
                            String(decoding: event.data, as: UTF8.self),
                        ])
                }
                afterInsert()
                Thread.sleep(forTimeInterval: Double(hold.components.seconds) + Double(hold.components.attoseconds) / 1e18)
                try db.execute(sql: commit ? "COMMIT" : "ROLLBACK")
            }
            try queue.close()
        }
    }

    /// Opens a PostgreSQL transaction that writes no event but holds a transaction id (as an
    /// idempotency record's does) and commits it after `hold`; returns once it holds the id,
    /// with the task that ends it. On SQLite there is no such thing: it returns a finished task.
    public func holdTransactionWithoutEvents(hold: Duration) async throws -> Task<Void, any Error> {
        guard let postgres else { return Task {} }
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: .init(
                host: postgres.host, port: postgres.port, username: postgres.username,
                password: postgres.password, database: postgres.database, tls: .disable),
            id: 3, logger: Logger(label: "test"))
        try await connection.query("BEGIN", logger: Logger(label: "test"))
        try await connection.query("SELECT pg_current_xact_id()", logger: Logger(label: "test"))
        return Task {
            try await Task.sleep(for: hold)
            try await connection.query("COMMIT", logger: Logger(label: "test"))
            try await connection.close()
        }
    }

    /// Starts ``appendInTransaction(stream:events:hold:commit:afterInsert:)`` and returns once
    /// its rows are inserted (the transaction still open), with the task that ends it.
    public func holdTransaction(stream: String, events: [NewEvent], hold: Duration, commit: Bool = true) async -> Task<Void, any Error> {
        let (inserted, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            defer { signal.finish() }
            try await appendInTransaction(stream: stream, events: events, hold: hold, commit: commit) { signal.yield() }
        }
        for await _ in inserted { break }
        return task
    }

    /// Ends the LISTEN connections of this log's stores, as a network failure would.
    public func dropListenConnections() async throws {
        guard let postgres else { return }
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: .init(
                host: postgres.host, port: postgres.port, username: postgres.username,
                password: postgres.password, database: postgres.database, tls: .disable),
            id: 2, logger: Logger(label: "test"))
        let pattern = "LISTEN \"\(postgres.schema)_events\"%"
        try await connection.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE \(pattern)", logger: Logger(label: "test"))
        try await connection.close()
    }

    public func close() async {
        await store.shutdown()
        await cluster?.destroy()
    }
}

/// A small JSON event for tests.
public func testEvent(_ type: String = "Tested", _ body: [String: Int] = [:], id: UUID = UUID()) -> NewEvent {
    let data = try! JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    return NewEvent(id: id, type: type, data: data, metadata: EventMetadata(service: "tests"))
}

/// Collects pages from a subscription until `until` holds or `timeout` passes.
public func collect(
    _ subscription: EventSubscription, timeout: Duration = .seconds(30), until: @escaping @Sendable ([RecordedEvent]) -> Bool
) async throws -> [RecordedEvent] {
    try await withThrowingTaskGroup(of: [RecordedEvent]?.self) { group in
        group.addTask {
            var seen: [RecordedEvent] = []
            for try await page in subscription {
                seen += page.events
                if until(seen) { return seen }
            }
            return seen
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next(), let seen = result else {
            throw TestSetupError("subscription did not deliver what was expected within \(timeout)")
        }
        return seen
    }
}
