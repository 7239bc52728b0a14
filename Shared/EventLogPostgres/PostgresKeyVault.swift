import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The key vault beside the PostgreSQL log: table `<schema>.personal_data_keys`, never
/// part of an export. Destroyed keys leave a tombstone row (material NULL).
public final class PostgresKeyVault: KeyVault {
    private let connection: SchemaConnection

    /// Uses the store's connection pool; the table is created by the log's migrations.
    public init(store: PostgresEventStore) {
        connection = SchemaConnection(store)
    }

    public func key(for owner: UUID) async throws -> Data {
        let material = ByteBuffer(bytes: PostgresKeyVault.newKeyMaterial())
        let query: PostgresQuery = """
            WITH inserted AS (
                INSERT INTO \(unescaped: connection.schema).personal_data_keys (owner, material) VALUES (\(owner), \(material))
                ON CONFLICT (owner) DO NOTHING RETURNING material)
            SELECT material FROM inserted
            UNION ALL SELECT material FROM \(unescaped: connection.schema).personal_data_keys WHERE owner = \(owner)
            LIMIT 1
            """
        for try await bytes in try await connection.client.queryAbandonable(query, logger: connection.logger).decode(ByteBuffer?.self) {
            guard let bytes else { throw KeyDestroyedError(owner: owner) }
            return Data(bytes.readableBytesView)
        }
        // No row: another request made the key at the same moment, after this statement's
        // snapshot was taken. It has committed by now; read it.
        guard let existing = try await existingKey(for: owner) else { throw KeyDestroyedError(owner: owner) }
        return existing
    }

    public func existingKey(for owner: UUID) async throws -> Data? {
        let query: PostgresQuery = "SELECT material FROM \(unescaped: connection.schema).personal_data_keys WHERE owner = \(owner)"
        for try await bytes in try await connection.client.queryAbandonable(query, logger: connection.logger).decode(ByteBuffer?.self) {
            return bytes.map { Data($0.readableBytesView) }
        }
        return nil
    }

    public func destroyKey(for owner: UUID) async throws {
        try await connection.client.queryAbandonable("""
            INSERT INTO \(unescaped: connection.schema).personal_data_keys (owner, material, destroyed_at) VALUES (\(owner), NULL, now())
            ON CONFLICT (owner) DO UPDATE SET material = NULL, destroyed_at = now()
            """, logger: connection.logger)
    }
}
