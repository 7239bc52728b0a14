import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Idempotency records in the log's PostgreSQL schema (table `idempotency_records`, made
/// by the log's migrations), shared by every replica of every service.
public final class PostgresIdempotencyRecords: IdempotencyRecords {
    private let connection: SchemaConnection

    /// Uses the store's connection pool.
    public init(store: PostgresEventStore) {
        connection = SchemaConnection(store)
    }

    public func claim(scope: String, key: String, requestHash: String, now: Date, leaseUntil: Date) async throws -> IdempotencyClaim {
        // One statement decides: insert a new claim, or take over a lapsed one of the same
        // request; otherwise return the row as it is, for the caller to read.
        let rows = try await connection.client.queryAbandonable("""
            INSERT INTO \(unescaped: connection.schema).idempotency_records AS r (scope, key, request_hash, created_at, lease_until)
            VALUES (\(scope), \(key), \(requestHash), \(now), \(leaseUntil))
            ON CONFLICT (scope, key) DO UPDATE SET lease_until = excluded.lease_until
                WHERE r.response IS NULL AND r.lease_until < \(now) AND r.request_hash = excluded.request_hash
            RETURNING true
            """, logger: connection.logger)
        for try await _ in rows.decode(Bool.self) { return .claimed }
        let existing = try await connection.client.queryAbandonable("""
            SELECT request_hash, response FROM \(unescaped: connection.schema).idempotency_records WHERE scope = \(scope) AND key = \(key)
            """, logger: connection.logger)
        for try await (hash, response) in existing.decode((String, ByteBuffer?).self) {
            guard hash == requestHash else { return .differentRequest }
            guard let response else { return .inProgress }
            return .replay(Data(response.readableBytesView))
        }
        // Released between the two statements: claim again.
        return try await claim(scope: scope, key: key, requestHash: requestHash, now: now, leaseUntil: leaseUntil)
    }

    public func finish(scope: String, key: String, response: Data) async throws {
        let body = ByteBuffer(bytes: response)
        try await connection.client.queryAbandonable("""
            UPDATE \(unescaped: connection.schema).idempotency_records SET response = \(body) WHERE scope = \(scope) AND key = \(key)
            """, logger: connection.logger)
    }

    public func release(scope: String, key: String) async throws {
        try await connection.client.queryAbandonable("""
            DELETE FROM \(unescaped: connection.schema).idempotency_records WHERE scope = \(scope) AND key = \(key) AND response IS NULL
            """, logger: connection.logger)
    }

    public func forget(caller: String) async throws -> Int {
        let rows = try await connection.client.queryAbandonable("""
            WITH gone AS (DELETE FROM \(unescaped: connection.schema).idempotency_records WHERE split_part(scope, ' ', 2) = \(caller) RETURNING 1)
            SELECT count(*) FROM gone
            """, logger: connection.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    public func purge(before cutoff: Date) async throws -> Int {
        let rows = try await connection.client.queryAbandonable("""
            WITH gone AS (DELETE FROM \(unescaped: connection.schema).idempotency_records WHERE created_at < \(cutoff) RETURNING 1)
            SELECT count(*) FROM gone
            """, logger: connection.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
