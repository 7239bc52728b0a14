import EventLog
import EventLogPostgres
import EventLogSQLite
import Foundation
import Logging
import ReadModel

/// What a running service has: its configuration, the log, its read model and the
/// projection runners that fill it, the vault of personal-data keys, and the blob store of photos.
public final class ServiceRuntime: Sendable {
    public let configuration: ServiceConfiguration
    public let store: any EventStore
    public let readModel: ReadModelDatabase
    public let runners: [ProjectionRunner]
    public let keyVault: WrappedKeyVault
    /// Photos and their sizes, shared by every replica (see ``blobStore(beside:)``).
    public let blobStore: any BlobStore
    /// First answers to `Idempotency-Key` requests, shared by every replica.
    public let idempotency: any IdempotencyRecords
    public let logger: Logger
    /// Signed-in callers' live streams: capped per account, ended with their session.
    public let streams = SessionStreams()
    /// What this replica shows its peers, and accepts from them (snapshots, the console's view of every replica).
    public let replicaCredential: ReplicaCredential
    /// Set once the service is stopping: it then reports not ready and closes each connection after its answer.
    public let drain = ShutdownDrain()

    init(configuration: ServiceConfiguration, store: any EventStore, projections: [any Projection], logger: Logger) throws {
        self.configuration = configuration
        self.store = InstrumentedEventStore(store, service: configuration.service)
        self.logger = logger
        // A file a replay replaced is removed once every request that may still read it has
        // met its deadline.
        let readModel = try ReadModelDatabase(
            directory: URL(fileURLWithPath: configuration.dataDirectory), name: configuration.service, projections: projections,
            retireAfter: configuration.requestDeadline + .seconds(5), logger: logger)
        self.readModel = readModel
        let keyVault = try Self.vault(beside: store, environment: configuration.environment)
        self.keyVault = keyVault
        replicaCredential = ReplicaCredential(secrets: keyVault.secrets)
        runners = projections.map {
            ProjectionRunner(store: store, database: readModel, projection: $0, keys: keyVault, logger: logger)
        }
        blobStore = try Self.blobStore(beside: store)
        idempotency = try Self.idempotencyRecords(beside: store)
    }

    /// True once every projection has caught up with the log as it was at start.
    public var isReady: Bool { runners.allSatisfy(\.status.isCaughtUp) }

    /// Why the service should not take traffic now, or nil when it should: stopping, a projection still
    /// catching up with the log as it was at start, a projection halted on an event, or the
    /// log not answering within `patience`.
    public func notReadyReason(patience: Duration = .seconds(2)) async -> String? {
        if drain.isDraining { return "The service is stopping." }
        if let halted = runners.first(where: { $0.status.stalledOn != nil }) {
            return "The projection \(halted.projection.name) is halted on an event: \(halted.status.stalledOn ?? "")."
        }
        guard isReady else { return "The read model is still catching up with the event log." }
        do {
            _ = try await withDeadline(patience) { [store] in try await store.head() }
        } catch {
            return "The event log cannot be reached."
        }
        return nil
    }

    /// Waits until every projection has applied `checkpoint` (after a write, before answering).
    public func waitUntilApplied(_ checkpoint: Checkpoint, timeout: Duration = .seconds(2)) async -> Bool {
        await ProjectionRunner.waitUntilApplied(runners, checkpoint, timeout: timeout)
    }

    /// The key vault that lives beside a log: a table in its PostgreSQL schema, or a
    /// `<log>.keys` SQLite file next to the embedded log, its keys wrapped by the
    /// ``KeyVaultSecrets`` that `environment` gives (for the embedded log in development,
    /// by a random one in `<log>.keys-secret`).
    public static func vault(beside store: any EventStore, environment: EnvironmentVariables) throws -> WrappedKeyVault {
        try vault(beside: store, secrets: try vaultSecrets(beside: store, environment: environment))
    }

    /// The secrets that wrap the keys of the vault beside `store` (see ``vault(beside:environment:)``).
    static func vaultSecrets(beside store: any EventStore, environment: EnvironmentVariables) throws -> KeyVaultSecrets {
        let embedded = ((store as? InstrumentedEventStore)?.base ?? store) as? SQLiteEventStore
        return try KeyVaultSecrets.resolve(environment: environment, developmentFile: embedded.map { $0.path + ".keys-secret" })
    }

    /// The key vault beside a log, its keys wrapped by `secrets`.
    public static func vault(beside store: any EventStore, secrets: KeyVaultSecrets) throws -> WrappedKeyVault {
        WrappedKeyVault(
            storage: try beside(store, "key vault", postgres: PostgresKeyStorage.init, sqlite: { try SQLiteKeyStorage(path: $0 + ".keys") }),
            secrets: secrets)
    }

    /// The blob store that lives beside a log: tables in its PostgreSQL schema, or a
    /// `<log>.blobs` SQLite file next to the embedded log.
    public static func blobStore(beside store: any EventStore) throws -> any BlobStore {
        try beside(store, "blob store", postgres: PostgresBlobStore.init, sqlite: { try SQLiteBlobStore(path: $0 + ".blobs") })
    }

    /// The idempotency records that live beside a log: a table in its PostgreSQL schema, or
    /// a `<log>.idempotency` SQLite file next to the embedded log.
    public static func idempotencyRecords(beside store: any EventStore) throws -> any IdempotencyRecords {
        try beside(
            store, "idempotency records", postgres: PostgresIdempotencyRecords.init,
            sqlite: { try SQLiteIdempotencyRecords(path: $0 + ".idempotency") })
    }

    /// The service secrets that live beside a log: a table in its PostgreSQL schema, or a
    /// table in the `<log>.keys` SQLite file next to the embedded log.
    public static func serviceSecrets(beside store: any EventStore) throws -> any ServiceSecrets {
        try beside(store, "service secrets", postgres: PostgresServiceSecrets.init, sqlite: { try SQLiteServiceSecrets(path: $0 + ".keys") })
    }

    /// What `postgres` or `sqlite` (given the log file's path) opens beside the log under `store`.
    private static func beside<Shared>(
        _ store: any EventStore, _ what: String, postgres: (PostgresEventStore) -> Shared, sqlite: (String) throws -> Shared
    ) throws -> Shared {
        let base = (store as? InstrumentedEventStore)?.base ?? store
        switch base {
        case let store as PostgresEventStore: return postgres(store)
        case let store as SQLiteEventStore: return try sqlite(store.path)
        default: throw ConfigurationError(key: "COMMONS_EVENT_STORE", problem: "no \(what) for \(type(of: base))")
        }
    }
}
