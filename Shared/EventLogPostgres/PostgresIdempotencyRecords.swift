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
        // request; otherwise the row as it is tells the caller what to do.
        let claim = ClaimIdempotencyStatement(scope: scope, key: key, requestHash: requestHash, now: now, leaseUntil: leaseUntil)
        if try await !connection.statements.execute(claim, logger: connection.logger).isEmpty { return .claimed }
        let record = IdempotencyRecordStatement(scope: scope, key: key)
        if let (hash, response) = try await connection.statements.execute(record, logger: connection.logger).first {
            guard hash == requestHash else { return .differentRequest }
            guard let response else { return .inProgress }
            return .replay(Data(response.readableBytesView))
        }
        // Released between the two statements: claim again.
        return try await self.claim(scope: scope, key: key, requestHash: requestHash, now: now, leaseUntil: leaseUntil)
    }

    public func finish(scope: String, key: String, response: Data) async throws {
        let finish = FinishIdempotencyStatement(scope: scope, key: key, response: ByteBuffer(bytes: response))
        _ = try await connection.statements.execute(finish, logger: connection.logger)
    }

    public func release(scope: String, key: String) async throws {
        _ = try await connection.statements.execute(ReleaseIdempotencyStatement(scope: scope, key: key), logger: connection.logger)
    }

    public func forget(caller: String) async throws -> Int {
        let rows = try await connection.client.queryAbandonable(
            """
            WITH gone AS (DELETE FROM \(unescaped: connection.schema).idempotency_records WHERE split_part(scope, ' ', 2) = \(caller) RETURNING 1)
            SELECT count(*) FROM gone
            """, logger: connection.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    public func purge(before cutoff: Date) async throws -> Int {
        let rows = try await connection.client.queryAbandonable(
            """
            WITH gone AS (DELETE FROM \(unescaped: connection.schema).idempotency_records WHERE created_at < \(cutoff) RETURNING 1)
            SELECT count(*) FROM gone
            """, logger: connection.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
