import Foundation
import NIOCore
import PostgresNIO

/// The cells of a row, in order, read from their bytes in PostgreSQL's binary format as the
/// statement's own columns are known to be typed.
///
/// The store's statements always get their rows in the binary format (PostgresNIO asks for
/// it), but the event-loop form (``LoopDecodedStatement``) runs statements that PostgresNIO
/// 1.33's older interface prepared, and that interface keeps the format the server's
/// `Describe` reported, text, in the row's column descriptions. PostgresNIO's decoders trust
/// that mark and would read eight binary bytes as digits; these readers go by the bytes alone,
/// on either path, and check each cell's length.
struct BinaryCells {
    private var cells: PostgresRow.Iterator

    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// A row without as many cells as the statement selects, or a cell of the wrong length.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The next cell's bytes; nil when it is null.
    mutating func nextBytes() throws -> ByteBuffer? {
        guard let cell = cells.next() else { throw Malformed(description: "the row has fewer cells than the statement selects") }
        return cell.bytes
    }

    /// Passes over the next `count` cells, which must be there.
    mutating func skip(_ count: Int) throws {
        for _ in 0..<count { _ = try nextBytes() }
    }

    /// The next cell's bytes, which must not be null.
    mutating func nextValue(_ column: String) throws -> ByteBuffer {
        guard let bytes = try nextBytes() else { throw Malformed(description: "\(column) is null") }
        return bytes
    }

    /// An `int8`, or nil when the cell is null.
    mutating func optionalInt64(_ column: String) throws -> Int64? {
        guard let bytes = try nextBytes() else { return nil }
        return try Self.integer(bytes, Int64.self, column)
    }

    mutating func int64(_ column: String) throws -> Int64 {
        try Self.integer(nextValue(column), Int64.self, column)
    }

    mutating func int32(_ column: String) throws -> Int32 {
        try Self.integer(nextValue(column), Int32.self, column)
    }

    /// An `xid8`.
    mutating func transactionID(_ column: String) throws -> UInt64 {
        try Self.integer(nextValue(column), UInt64.self, column)
    }

    mutating func bool(_ column: String) throws -> Bool {
        try Self.integer(nextValue(column), UInt8.self, column) != 0
    }

    /// `text` (or `varchar`): its UTF-8 bytes as they are.
    mutating func string(_ column: String) throws -> String {
        String(buffer: try nextValue(column))
    }

    mutating func uuid(_ column: String) throws -> UUID {
        let bytes = try nextValue(column)
        guard bytes.readableBytes == 16 else { throw Malformed(description: "\(column) is not 16 bytes") }
        return bytes.withUnsafeReadableBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// A `timestamptz`: microseconds since 2000-01-01 UTC, converted as PostgresNIO converts them.
    mutating func date(_ column: String) throws -> Date {
        Self.date(microseconds: try Self.integer(nextValue(column), Int64.self, column))
    }

    /// The instant `microseconds` after 2000-01-01 UTC, a `timestamptz`'s binary value.
    static func date(microseconds: Int64) -> Date {
        Date(timeInterval: Double(microseconds) / 1_000_000, since: postgresEpoch)
    }

    private static let postgresEpoch = Date(timeIntervalSince1970: 946_684_800)

    private static func integer<Value: FixedWidthInteger>(_ bytes: ByteBuffer, _: Value.Type, _ column: String) throws -> Value {
        guard bytes.readableBytes == MemoryLayout<Value>.size, let value = bytes.getInteger(at: bytes.readerIndex, as: Value.self)
        else { throw Malformed(description: "\(column) is not \(MemoryLayout<Value>.size) bytes") }
        return value
    }
}
