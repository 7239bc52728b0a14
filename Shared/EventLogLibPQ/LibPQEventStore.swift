import EventLog
import EventLogPostgres
import Foundation
import Logging

/// The event log in PostgreSQL, on libpq: the same table, migrations, statements and
/// visibility rule as ``PostgresEventStore`` (the two open one log interchangeably), with
/// PostgreSQL's own client library underneath.
///
/// Statements run on connections each on a thread of its own (``LibPQPool``): a connection
/// that finds several waiting sends them in one pipeline. Single-event appends are grouped
/// as the PostgresNIO store groups them (`AppendGrouper`). A LISTEN connection on its own
/// thread wakes subscribers (``LibPQListener``); subscribers also poll.
///
/// The tables beside the log (blobs, idempotency records, keys, service secrets) are not
/// served here: a process that needs them opens them on a ``PostgresEventStore``.
public final class LibPQEventStore: PostgresAppending {
    public let configuration: PostgresEventStoreConfiguration
    public let changes = ChangeSignal()
    public var pollInterval: Duration { configuration.pollInterval }

    let pool: LibPQPool
    let logger: Logger
    package let notifier: AppendNotifier
    package let grouper: AppendGrouper
    private let listener: LibPQListener

    /// Connects (waiting up to the configuration's `startupPatience` for a server that is
    /// not up yet), migrates the schema, and starts listening for appends.
    public init(configuration: PostgresEventStoreConfiguration, logger: Logger = Logger(label: "commons.eventlog.libpq")) async throws {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
        let connectionString = configuration.libpqConnectionString()
        // As many as the PostgresNIO store's pool may hold: its own four connections alone
        // made eight writers of 100-event batches queue behind four (`commons bench eventlog`).
        let pool = LibPQPool(connectionString: connectionString, size: max(1, configuration.maximumConnections), name: "commons libpq")
        self.pool = pool
        let channels = NotificationChannels(schema: configuration.schema)
        let origin = NotificationOrigin()
        notifier = AppendNotifier(channels: channels, origin: origin, logger: logger) { notification, sent in
            pool.send(notification, sent: sent)
        }
        grouper = AppendGrouper(slots: configuration.concurrentAppends) { appends in
            try await pool.execute(LibPQStatements.appendGroup, Self.groupParameters(appends), decode: Self.appendRows)
        }
        listener = LibPQListener(
            connectionString: connectionString, channels: channels,
            hearing: configuration.hearsEveryCategory ? .everything : .categoriesAskedAbout, changes: changes, origin: origin, logger: logger)
        do {
            try await Self.waitForServer(pool, patience: configuration.startupPatience, logger: logger)
            try await LibPQMigrations.migrate(pool, schema: configuration.schema, logger: logger)
            try await refuseTransactionsFromAnotherCluster()
        } catch {
            pool.close()
            throw error
        }
        listener.start()
    }

    /// Waits for a server that refuses connections or is starting, up to `patience`; a server
    /// that refuses us otherwise (a password, `pg_hba.conf`, TLS) fails at once.
    private static func waitForServer(_ pool: LibPQPool, patience: Duration, logger: Logger) async throws {
        let started = ContinuousClock.now
        while true {
            do {
                return try await pool.session { connection in _ = try connection.connected() }
            } catch let error as LibPQError where error.isNotUpYet && ContinuousClock.now - started < patience {
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// As ``PostgresEventStore``'s: a log copied from another cluster with its transaction ids
    /// would deliver no new event to readers that had read it.
    private func refuseTransactionsFromAnotherCluster() async throws {
        let sql = PreparedSQL(
            "commons_cluster_counter",
            "SELECT (SELECT max(transaction_id) FROM events)::text, pg_snapshot_xmax(pg_current_snapshot())::text", [])
        let (newest, counter) = try await pool.execute(sql, [], pipelinable: false) { result in
            (result.text(0, 0), result.text(0, 1) ?? "")
        }
        try PostgresEventStore.refuseCopiedLog(newest: newest, counter: counter, schema: configuration.schema)
    }

    /// Stops listening and closes the connections; statements waiting answer an error.
    public func shutdown() async {
        listener.stop()
        pool.close()
    }

    /// How many times the LISTEN connection has been established (for tests and metrics).
    public var listenerConnections: Int { listener.connections }

    /// How many group statements this store has sent, and how many single-event appends they carried.
    public var appendGroups: (statements: Int, appends: Int) { (grouper.groupsSent, grouper.appendsGrouped) }

    /// How many of this store's own notifications came back to it and were skipped.
    public var ownNotificationsSkipped: Int { listener.ownNotificationsSkipped }
}

extension LibPQError {
    /// The server is not up yet: it refuses connections, or is starting or recovering.
    var isNotUpYet: Bool {
        guard sqlState == nil else { return sqlState == "57P03" }
        return ["Connection refused", "starting up", "No such file or directory", "shutting down", "recovery"].contains {
            message.contains($0)
        }
    }
}
