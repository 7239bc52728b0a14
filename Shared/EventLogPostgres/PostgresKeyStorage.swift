import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The key vault's rows beside the PostgreSQL log: table `<schema>.personal_data_keys`,
/// never part of an export. Destroyed keys leave a tombstone row (value NULL). The values
/// are keys wrapped by a secret the database never sees, because a row PostgreSQL deletes
/// lives on in dead tuples, the WAL and every backup.
public final class PostgresKeyStorage: KeyStorage {
    private let connection: SchemaConnection

    /// Uses the store's connection pool; the table is created by the log's migrations.
    public init(store: PostgresEventStore) {
        connection = SchemaConnection(store)
    }

    private var table: String { "\(connection.schema).personal_data_keys" }

    public func storeIfAbsent(_ candidate: Data, for owner: UUID) async throws -> Data? {
        let statement = StoreKeyIfAbsentStatement(owner: owner, candidate: ByteBuffer(bytes: candidate))
        if let stored = try await connection.statements.execute(statement, logger: connection.logger).first {
            return stored.map { Data($0.readableBytesView) }
        }
        // No row: another request stored one at the same moment, after this statement's
        // snapshot was taken. It has committed by now; read it.
        return try await stored(for: owner)
    }

    public func stored(for owner: UUID) async throws -> Data? {
        let rows = try await connection.statements.execute(StoredKeyStatement(owner: owner), logger: connection.logger)
        return rows.first.flatMap { $0.map { Data($0.readableBytesView) } }
    }

    public func stored(for owners: [UUID]) async throws -> [UUID: Data] {
        var values: [UUID: Data] = [:]
        for (owner, material) in try await connection.statements.execute(StoredKeysStatement(owners: owners), logger: connection.logger) {
            if let material { values[owner] = Data(material.readableBytesView) }
        }
        return values
    }

    public func destroy(_ owner: UUID, wrappedBy: Data?) async throws {
        let secret = wrappedBy.map { ByteBuffer(bytes: $0) }
        // A key destroyed again keeps its first destruction's time and secret.
        try await connection.client.queryAbandonable(
            """
            INSERT INTO \(unescaped: table) AS k (owner, material, destroyed_at, destroyed_under) VALUES (\(owner), NULL, now(), \(secret))
            ON CONFLICT (owner) DO UPDATE SET material = NULL, destroyed_at = now(), destroyed_under = excluded.destroyed_under
            WHERE k.material IS NOT NULL OR k.destroyed_at IS NULL
            """, logger: connection.logger)
    }

    public func destroyedKeys() async throws -> [DestroyedKeys] {
        let query: PostgresQuery = """
            SELECT destroyed_under, count(*)::bigint, min(destroyed_at) FROM \(unescaped: table)
            WHERE material IS NULL AND destroyed_at IS NOT NULL GROUP BY destroyed_under
            """
        var tally: [DestroyedKeys] = []
        for try await (secret, count, earliest) in try await connection.client.queryAbandonable(query, logger: connection.logger)
            .decode((ByteBuffer?, Int64, Date).self)
        {
            tally.append(DestroyedKeys(wrappedBy: secret.map { Data($0.readableBytesView) }, count: Int(count), earliest: earliest))
        }
        return tally
    }

    public func live(after owner: UUID?, limit: Int) async throws -> [(owner: UUID, value: Data)] {
        let query: PostgresQuery = """
            SELECT owner, material FROM \(unescaped: table)
            WHERE material IS NOT NULL AND owner > \(owner ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
            ORDER BY owner LIMIT \(limit)
            """
        var rows: [(owner: UUID, value: Data)] = []
        for try await (owner, bytes) in try await connection.client.queryAbandonable(query, logger: connection.logger).decode((UUID, ByteBuffer).self)
        {
            rows.append((owner, Data(bytes.readableBytesView)))
        }
        return rows
    }

    public func replace(_ owner: UUID, _ old: Data, with new: Data) async throws -> Bool {
        let query: PostgresQuery = """
            UPDATE \(unescaped: table) SET material = \(ByteBuffer(bytes: new))
            WHERE owner = \(owner) AND material = \(ByteBuffer(bytes: old)) RETURNING owner
            """
        for try await _ in try await connection.client.queryAbandonable(query, logger: connection.logger).decode(UUID.self) { return true }
        return false
    }
}
