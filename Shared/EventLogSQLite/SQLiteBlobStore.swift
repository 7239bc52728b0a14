import EventLog
import Foundation
import GRDB
import GRDBSQLite

/// The blob store of the embedded log: its own SQLite file beside the log (`<log>.blobs`),
/// so photos neither bloat nor slow the log's file. `secure_delete` overwrites deleted bytes.
public final class SQLiteBlobStore: BlobStore {
    let pool: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration.besideTheLog
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        pool = try DatabasePool.openingShared(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS blobs (
                        address TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BLOB NOT NULL, stored_at REAL NOT NULL);
                    CREATE TABLE IF NOT EXISTS blob_owners (
                        address TEXT NOT NULL REFERENCES blobs (address) ON DELETE CASCADE, owner TEXT NOT NULL,
                        PRIMARY KEY (address, owner));
                    CREATE INDEX IF NOT EXISTS blob_owners_owner ON blob_owners (owner);
                    """)
        }
    }

    public func put(_ bytes: [UInt8], at address: String, contentType: String, owner: UUID) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO blobs (address, content_type, bytes, stored_at) VALUES (?, ?, ?, julianday('now'))",
                arguments: [address, contentType, Data(bytes)])
            try db.execute(sql: "INSERT OR IGNORE INTO blob_owners (address, owner) VALUES (?, ?)", arguments: [address, owner.lowercasedText])
        }
    }

    public func get(_ address: String) async throws -> Blob? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT content_type, bytes FROM blobs WHERE address = ?", arguments: [address]).map {
                Blob(address: address, contentType: $0["content_type"], bytes: [UInt8]($0["bytes"] as Data))
            }
        }
    }

    public func header(of address: String) async throws -> BlobHeader? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT content_type, length(bytes) FROM blobs WHERE address = ?", arguments: [address]).map {
                BlobHeader(contentType: $0[0], byteCount: $0[1])
            }
        }
    }

    /// Through SQLite's incremental blob I/O: `substr` would load the whole blob for every piece.
    public func read(_ address: String, from offset: Int, count: Int) async throws -> [UInt8] {
        try await pool.read { db in
            guard let rowid = try Int64.fetchOne(db, sql: "SELECT rowid FROM blobs WHERE address = ?", arguments: [address]) else { return [] }
            var handle: OpaquePointer?
            let opened = sqlite3_blob_open(db.sqliteConnection, "main", "blobs", "bytes", rowid, 0, &handle)
            defer { sqlite3_blob_close(handle) }
            guard opened == SQLITE_OK, let handle else { throw DatabaseError(resultCode: ResultCode(rawValue: opened)) }
            let size = Int(sqlite3_blob_bytes(handle))
            guard offset >= 0, offset < size, count > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: min(count, size - offset))
            let read = bytes.withUnsafeMutableBytes { sqlite3_blob_read(handle, $0.baseAddress, Int32($0.count), Int32(offset)) }
            guard read == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: read)) }
            return bytes
        }
    }

    public func removeOwner(_ owner: UUID) async throws -> Int {
        let deleted = try await pool.write { db in
            let addresses = try String.fetchAll(db, sql: "SELECT address FROM blob_owners WHERE owner = ?", arguments: [owner.lowercasedText])
            try db.execute(sql: "DELETE FROM blob_owners WHERE owner = ?", arguments: [owner.lowercasedText])
            var deleted = 0
            for address in addresses {
                try db.execute(
                    sql: "DELETE FROM blobs WHERE address = ? AND NOT EXISTS (SELECT 1 FROM blob_owners WHERE address = ?)",
                    arguments: [address, address])
                deleted += db.changesCount
            }
            return deleted
        }
        // The WAL still holds the pages as they were before the deletion: fold it into the
        // main file (where secure_delete has zeroed them) and empty it.
        if deleted > 0 { try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
        return deleted
    }

    public func blobs(after address: String?, limit: Int) async throws -> [Blob] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT b.address, b.content_type, b.bytes, (SELECT group_concat(owner, ' ') FROM
                        (SELECT owner FROM blob_owners o WHERE o.address = b.address ORDER BY owner)) AS owners
                    FROM blobs b WHERE b.address > ? ORDER BY b.address LIMIT ?
                    """, arguments: [address ?? "", limit]
            ).map { row in
                let owners = (row["owners"] as String?)?.split(separator: " ").compactMap { UUID(uuidString: String($0)) } ?? []
                return Blob(address: row["address"], contentType: row["content_type"], bytes: [UInt8](row["bytes"] as Data), owners: owners)
            }
        }
    }

    public func restore(_ blob: Blob) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO blobs (address, content_type, bytes, stored_at) VALUES (?, ?, ?, julianday('now'))",
                arguments: [blob.address, blob.contentType, Data(blob.bytes)])
            let inserted = db.changesCount > 0
            for owner in blob.owners {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO blob_owners (address, owner) VALUES (?, ?)", arguments: [blob.address, owner.lowercasedText])
            }
            return inserted
        }
    }
}
