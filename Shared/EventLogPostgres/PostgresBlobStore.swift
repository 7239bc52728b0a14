import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The blob store beside the PostgreSQL log: tables `<schema>.blobs` (address, media type,
/// bytes) and `<schema>.blob_owners`, made by the log's migrations. Deleted bytes are gone
/// from every query at once; PostgreSQL reclaims their space when it vacuums the table.
public final class PostgresBlobStore: BlobStore {
    private let connection: SchemaConnection

    /// Uses the store's connection pool.
    public init(store: PostgresEventStore) {
        connection = SchemaConnection(store)
    }

    public func put(_ bytes: [UInt8], at address: String, contentType: String, owner: UUID) async throws {
        let body = ByteBuffer(bytes: bytes)
        // One statement: the owner row's foreign key sees the blob the same statement inserted.
        try await connection.client.queryAbandonable(
            """
            WITH blob AS (
                INSERT INTO \(unescaped: connection.schema).blobs (address, content_type, bytes) VALUES (\(address), \(contentType), \(body))
                ON CONFLICT (address) DO NOTHING)
            INSERT INTO \(unescaped: connection.schema).blob_owners (address, owner) VALUES (\(address), \(owner)) ON CONFLICT DO NOTHING
            """, logger: connection.logger)
    }

    public func get(_ address: String) async throws -> Blob? {
        let rows = try await connection.client.queryAbandonable(
            "SELECT content_type, bytes FROM \(unescaped: connection.schema).blobs WHERE address = \(address)", logger: connection.logger)
        for try await (contentType, bytes) in rows.decode((String, ByteBuffer).self) {
            return Blob(address: address, contentType: contentType, bytes: Array(bytes.readableBytesView))
        }
        return nil
    }

    public func header(of address: String) async throws -> BlobHeader? {
        let rows = try await connection.client.queryAbandonable(
            "SELECT content_type, octet_length(bytes) FROM \(unescaped: connection.schema).blobs WHERE address = \(address)",
            logger: connection.logger)
        for try await (contentType, count) in rows.decode((String, Int32).self) { return BlobHeader(contentType: contentType, byteCount: Int(count)) }
        return nil
    }

    /// A `substring` of the bytes: stored uncompressed (`STORAGE EXTERNAL`), PostgreSQL reads
    /// only the TOAST chunks that hold them.
    public func read(_ address: String, from offset: Int, count: Int) async throws -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        let rows = try await connection.client.queryAbandonable(
            """
            SELECT substring(bytes FROM \(Int32(clamping: offset + 1)) FOR \(Int32(clamping: count))) FROM \(unescaped: connection.schema).blobs WHERE address = \(address)
            """, logger: connection.logger)
        for try await bytes in rows.decode(ByteBuffer.self) { return Array(bytes.readableBytesView) }
        return []
    }

    public func removeOwner(_ owner: UUID) async throws -> Int {
        // The outer DELETE does not see the CTE's deletions, hence `owner <> …`.
        let rows = try await connection.client.queryAbandonable(
            """
            WITH released AS (DELETE FROM \(unescaped: connection.schema).blob_owners WHERE owner = \(owner) RETURNING address)
            DELETE FROM \(unescaped: connection.schema).blobs b
            WHERE b.address IN (SELECT address FROM released)
              AND NOT EXISTS (SELECT 1 FROM \(unescaped: connection.schema).blob_owners o WHERE o.address = b.address AND o.owner <> \(owner))
            RETURNING b.address
            """, logger: connection.logger)
        var deleted = 0
        for try await _ in rows.decode(String.self) { deleted += 1 }
        return deleted
    }

    public func blobs(after address: String?, limit: Int) async throws -> [Blob] {
        let rows = try await connection.client.queryAbandonable(
            """
            SELECT b.address, b.content_type, b.bytes,
                   coalesce((SELECT array_agg(o.owner ORDER BY o.owner) FROM \(unescaped: connection.schema).blob_owners o WHERE o.address = b.address), '{}')
            FROM \(unescaped: connection.schema).blobs b WHERE b.address COLLATE "C" > \(address ?? "") ORDER BY b.address COLLATE "C" LIMIT \(limit)
            """, logger: connection.logger)
        var blobs: [Blob] = []
        for try await (address, contentType, bytes, owners) in rows.decode((String, String, ByteBuffer, [UUID]).self) {
            blobs.append(Blob(address: address, contentType: contentType, bytes: Array(bytes.readableBytesView), owners: owners))
        }
        return blobs
    }

    public func restore(_ blob: Blob) async throws -> Bool {
        let body = ByteBuffer(bytes: blob.bytes)
        let rows = try await connection.client.queryAbandonable(
            """
            WITH blob AS (
                INSERT INTO \(unescaped: connection.schema).blobs (address, content_type, bytes) VALUES (\(blob.address), \(blob.contentType), \(body))
                ON CONFLICT (address) DO NOTHING RETURNING address),
            owners AS (
                INSERT INTO \(unescaped: connection.schema).blob_owners (address, owner)
                SELECT \(blob.address), owner FROM unnest(\(blob.owners)::uuid[]) AS owner ON CONFLICT DO NOTHING)
            SELECT count(*) FROM blob
            """, logger: connection.logger)
        for try await inserted in rows.decode(Int.self) { return inserted > 0 }
        return false
    }
}
