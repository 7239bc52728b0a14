import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// How the log's statements select an event, and how a row of them becomes one.
enum EventRow {
    /// The columns every event-returning statement selects, from a table or subquery
    /// aliased `e`, in the order ``event(_:)`` reads them: each as stored, in PostgreSQL's
    /// binary format. The metadata is one `jsonb` cell, read without a decoder (see
    /// ``EventMetadata/init(jsonObject:)``): a cell costs the client more than the few
    /// bytes in it, and six `->>` extractions cost the server more than one document.
    static let columns = """
        e.position, e.transaction_id, e.stream, e.version, e.id, e.type, e.schema_version, e.data, e.recorded_at, e.metadata
        """

    /// A row that does not hold the columns of an event.
    struct NoEvent: Error {}

    /// A `jsonb` cell whose bytes are not the binary format's version 1 and text.
    struct NotJSONB: Error {}

    /// The event in the next cells of a row of ``columns``; nil when they are null (a page of
    /// the whole log with no event). Cell by cell, each decoded as its own type: PostgresNIO's
    /// decoding of a whole row as a tuple is not specialized across modules, and was slower.
    static func event(_ cells: inout PostgresRow.Iterator) throws -> RecordedEvent? {
        guard let position = try cells.decodeNext(Int64?.self) else { return nil }
        let transaction = try cells.decodeNext(TransactionID.self)
        let stream = try cells.decodeNext(String.self)
        let version = try cells.decodeNext(Int64.self)
        let id = try cells.decodeNext(UUID.self)
        let type = try cells.decodeNext(String.self)
        let schemaVersion = try cells.decodeNext(Int32.self)
        let data = try JSONBText.data(cells.decodeNext(ByteBuffer.self))
        let recordedAt = try cells.decodeNext(Date.self)
        let metadata = try JSONBText.metadata(cells.decodeNext(ByteBuffer.self))
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: transaction.value, position: position), stream: stream, version: version,
            id: id, type: type, schemaVersion: Int(schemaVersion), data: data, metadata: metadata, recordedAt: recordedAt)
    }

    /// The event in a row of ``columns`` alone.
    static func event(in row: PostgresRow) throws -> RecordedEvent {
        var cells = row.makeIterator()
        guard let event = try event(&cells) else { throw NoEvent() }
        return event
    }
}

extension PostgresRow.Iterator {
    /// The next cell, decoded as `type`.
    mutating func decodeNext<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
        guard let cell = next() else { throw EventRow.NoEvent() }
        return try cell.decode(Value.self, context: .default)
    }
}

/// The text of a `jsonb` cell in PostgreSQL's binary format: a version byte, then the JSON
/// text as the server writes it.
enum JSONBText {
    /// The only version of the format.
    private static let version: UInt8 = 1

    /// The text as bytes, as they come: a String would validate and copy them once more.
    static func data(_ cell: ByteBuffer) throws -> Data {
        var cell = cell
        guard cell.readInteger(as: UInt8.self) == version else { throw EventRow.NotJSONB() }
        return Data(cell.readableBytesView)
    }

    /// The metadata in the text.
    static func metadata(_ cell: ByteBuffer) throws -> EventMetadata {
        var cell = cell
        guard cell.readInteger(as: UInt8.self) == version else { throw EventRow.NotJSONB() }
        return try cell.withUnsafeReadableBytes { try EventMetadata(jsonObject: $0) }
    }
}
