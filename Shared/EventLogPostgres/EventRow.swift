import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// How the log's statements select an event, and how a row of them becomes one.
enum EventRow {
    /// The columns every event-returning statement selects, from a table or subquery
    /// aliased `e`, in the order ``event(_:)`` reads them, in PostgreSQL's binary format.
    ///
    /// A cell costs the client more than the few bytes in it: PostgresNIO makes a
    /// `PostgresCell` of each, with its column's name and description, a quarter of
    /// read-all's time (issue 17). So every field but the body and the metadata comes packed
    /// into one `bytea` (``PackedFields``), the fixed-width ones by their types' own binary
    /// send functions, exactly the bytes their cells would hold; and the metadata is one
    /// `jsonb` cell read without a decoder (see ``EventMetadata/init(jsonObject:)``), where
    /// six `->>` extractions cost the server more than one document. The packed cell is null
    /// when there is no event (the empty side of a `LEFT JOIN`: the send functions are strict).
    static let columns = """
        int8send(e.position) || xid8send(e.transaction_id) || int8send(e.version) || int4send(e.schema_version) \
        || timestamptz_send(e.recorded_at) || uuid_send(e.id) || int4send(octet_length(e.stream)) || textsend(e.stream) \
        || textsend(e.type), e.data, e.metadata
        """

    /// How many cells ``columns`` selects.
    static let columnCount = 3

    /// A row that does not hold the columns of an event.
    struct NoEvent: Error {}

    /// A `jsonb` cell whose bytes are not the binary format's version 1 and text.
    struct NotJSONB: Error {}

    /// The event in the next cells of a row of ``columns``; nil when they are null (a page of
    /// the whole log with no event). Cell by cell, from its bytes (``BinaryCells``).
    static func event(_ cells: inout BinaryCells) throws -> RecordedEvent? {
        guard let packed = try cells.nextBytes() else {
            try cells.skip(columnCount - 1)
            return nil
        }
        let fixed = try PackedFields(packed)
        let data = try JSONBText.data(cells.nextValue("data"))
        let metadata = try JSONBText.metadata(cells.nextValue("metadata"))
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: fixed.transaction, position: fixed.position), stream: fixed.stream, version: fixed.version,
            id: fixed.id, type: fixed.type, schemaVersion: Int(fixed.schemaVersion), data: data, metadata: metadata, recordedAt: fixed.recordedAt)
    }

    /// The fields of an event but its body and metadata, packed in the first cell of
    /// ``columns``: position (`int8`), transaction id (`xid8`), version (`int8`), schema
    /// version (`int4`), recorded at (`timestamptz`) and id (`uuid`), each in its type's
    /// binary format (52 bytes), then the stream's length in bytes (`int4`), the stream and
    /// the type (the rest), as UTF-8.
    struct PackedFields {
        var position: Int64
        var transaction: UInt64
        var version: Int64
        var schemaVersion: Int32
        var recordedAt: Date
        var id: UUID
        var stream: String
        var type: String

        init(_ packed: ByteBuffer) throws {
            self = try packed.withUnsafeReadableBytes { try PackedFields(bytes: $0) }
        }

        /// The fields in the packed cell's bytes, whichever driver read them.
        init(bytes packed: UnsafeRawBufferPointer) throws {
            var reader = BigEndianReader(bytes: packed)
            guard let position = reader.read(Int64.self), let transaction = reader.read(UInt64.self),
                let version = reader.read(Int64.self), let schemaVersion = reader.read(Int32.self),
                let microseconds = reader.read(Int64.self), let id = reader.uuid()
            else { throw BinaryCells.Malformed(description: "the packed fields are cut short") }
            guard let streamLength = reader.read(Int32.self), streamLength >= 0, let stream = reader.string(length: Int(streamLength))
            else { throw BinaryCells.Malformed(description: "the packed stream is cut short") }
            self.position = position
            self.transaction = transaction
            self.version = version
            self.schemaVersion = schemaVersion
            recordedAt = BinaryCells.date(microseconds: microseconds)
            self.id = id
            self.stream = stream
            type = reader.rest()
        }
    }

    /// The event in a row of ``columns`` alone.
    static func event(in row: PostgresRow) throws -> RecordedEvent {
        var cells = BinaryCells(row)
        guard let event = try event(&cells) else { throw NoEvent() }
        return event
    }
}

/// The text of a `jsonb` cell in PostgreSQL's binary format: a version byte, then the JSON
/// text as the server writes it.
enum JSONBText {
    /// The only version of the format.
    private static let version: UInt8 = 1

    /// The text as bytes, as they come: a String would validate and copy them once more.
    static func data(_ cell: ByteBuffer) throws -> Data {
        try cell.withUnsafeReadableBytes { try data(bytes: $0) }
    }

    /// The metadata in the text.
    static func metadata(_ cell: ByteBuffer) throws -> EventMetadata {
        try cell.withUnsafeReadableBytes { try metadata(bytes: $0) }
    }

    /// ``data(_:)`` of the cell's bytes, whichever driver read them.
    static func data(bytes cell: UnsafeRawBufferPointer) throws -> Data {
        guard cell.first == version else { throw EventRow.NotJSONB() }
        return Data(UnsafeRawBufferPointer(rebasing: cell[1...]))
    }

    /// ``metadata(_:)`` of the cell's bytes, whichever driver read them.
    static func metadata(bytes cell: UnsafeRawBufferPointer) throws -> EventMetadata {
        guard cell.first == version else { throw EventRow.NotJSONB() }
        return try EventMetadata(jsonObject: UnsafeRawBufferPointer(rebasing: cell[1...]))
    }
}

/// Reads big-endian integers (PostgreSQL's binary format) and UTF-8 text from raw bytes.
struct BigEndianReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next integer; nil when the bytes end before it.
    mutating func read<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
        let size = MemoryLayout<Value>.size
        guard bytes.count - offset >= size else { return nil }
        defer { offset += size }
        return Value(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Value.self))
    }

    mutating func uuid() -> UUID? {
        guard bytes.count - offset >= 16 else { return nil }
        defer { offset += 16 }
        return UUID(uuid: bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    mutating func string(length: Int) -> String? {
        guard bytes.count - offset >= length else { return nil }
        defer { offset += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
    }

    /// The bytes left, as UTF-8 text.
    mutating func rest() -> String {
        defer { offset = bytes.count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset...]), as: UTF8.self)
    }
}
