import Foundation

/// Bytes kept beside the log (photos and their sizes), addressed by the hex SHA-256 of
/// their content, each with the accounts that own it. Every replica of every service reads
/// the same store: a table in the log's PostgreSQL schema, or a SQLite file beside the
/// embedded log. Never part of the events table; carried by `commons events export`.
public protocol BlobStore: Sendable {
    /// Stores `bytes` (whose SHA-256 is `address`) for `owner`. Storing the same address
    /// again keeps the first bytes and adds the owner: the same picture is kept once.
    func put(_ bytes: [UInt8], at address: String, contentType: String, owner: UUID) async throws
    /// The blob at `address`, or nil when there is none.
    func get(_ address: String) async throws -> Blob?
    /// The media type and length of the blob at `address`, without its bytes; nil when there is none.
    func header(of address: String) async throws -> BlobHeader?
    /// Up to `count` bytes of the blob at `address` from `offset`: fewer at its end, none past
    /// it or once it is gone. What serves a blob a piece at a time (``chunks(of:size:)``).
    func read(_ address: String, from offset: Int, count: Int) async throws -> [UInt8]
    /// Takes `owner` off every blob it owns and deletes the blobs nobody else owns; returns
    /// how many were deleted. Safe to repeat.
    func removeOwner(_ owner: UUID) async throws -> Int
    /// Up to `limit` blobs with their owners, in address order after `address` (nil: from the start).
    func blobs(after address: String?, limit: Int) async throws -> [Blob]
    /// Stores an exported blob with all its owners; true when its bytes were new here.
    func restore(_ blob: Blob) async throws -> Bool
}

/// What a blob is, without its bytes.
public struct BlobHeader: Sendable, Equatable {
    public var contentType: String
    public var byteCount: Int

    public init(contentType: String, byteCount: Int) {
        self.contentType = contentType
        self.byteCount = byteCount
    }
}

extension BlobStore {
    /// The blob at `address` in pieces of at most `size` bytes, read one at a time as they are
    /// asked for: serving a 10 MiB photo holds one piece in memory, not the photo. Ends early
    /// when the blob is deleted meanwhile.
    public func chunks(of address: String, size: Int = 256 * 1024) -> BlobChunks {
        BlobChunks(store: self, address: address, size: size)
    }
}

/// The pieces of one blob, read as they are asked for (``BlobStore/chunks(of:size:)``).
public struct BlobChunks: AsyncSequence, Sendable {
    let store: any BlobStore
    let address: String
    let size: Int

    public struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: BlobChunks
        var offset = 0

        public mutating func next() async throws -> [UInt8]? {
            let chunk = try await chunks.store.read(chunks.address, from: offset, count: chunks.size)
            offset += chunk.count
            return chunk.isEmpty ? nil : chunk
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }
}

/// Stored bytes, their media type and the accounts that own them.
public struct Blob: Sendable, Equatable {
    public var address: String
    public var contentType: String
    public var bytes: [UInt8]
    /// Sorted; may be empty when read with ``BlobStore/get(_:)``.
    public var owners: [UUID]

    public init(address: String, contentType: String, bytes: [UInt8], owners: [UUID] = []) {
        self.address = address
        self.contentType = contentType
        self.bytes = bytes
        self.owners = owners
    }

    /// True for 64 lower-case hex digits, the only form an address takes.
    public static func isAddress(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// Bytes whose SHA-256 is not the address they were stored under.
public struct BlobAddressMismatch: Error, CustomStringConvertible {
    public let address: String
    public init(address: String) { self.address = address }
    public var description: String { "the bytes stored for \(address) do not hash to it" }
}
