import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// Service secrets in the log's PostgreSQL schema (table `service_secrets`), outside the
/// events table and so outside every export.
public final class PostgresServiceSecrets: ServiceSecrets {
    private let connection: SchemaConnection

    /// Uses the store's connection pool; the table is made by the log's migrations.
    public init(store: PostgresEventStore) {
        connection = SchemaConnection(store)
    }

    public func read(_ name: String) async throws -> (value: Data, version: Int64)? {
        let rows = try await connection.client.queryAbandonable(
            "SELECT value, version FROM \(unescaped: connection.schema).service_secrets WHERE name = \(name)", logger: connection.logger)
        for try await (value, version) in rows.decode((ByteBuffer, Int64).self) { return (Data(value.readableBytesView), version) }
        return nil
    }

    public func write(_ name: String, value: Data, replacing expected: Int64) async throws -> Bool {
        let bytes = ByteBuffer(bytes: value)
        let query: PostgresQuery =
            expected == 0
            ? """
            INSERT INTO \(unescaped: connection.schema).service_secrets (name, value, version, updated_at) VALUES (\(name), \(bytes), 1, now())
            ON CONFLICT (name) DO NOTHING RETURNING version
            """
            : """
            UPDATE \(unescaped: connection.schema).service_secrets SET value = \(bytes), version = version + 1, updated_at = now()
            WHERE name = \(name) AND version = \(expected) RETURNING version
            """
        for try await _ in try await connection.client.queryAbandonable(query, logger: connection.logger).decode(Int64.self) { return true }
        return false
    }
}
