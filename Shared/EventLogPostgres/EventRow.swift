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

    /// How many cells ``columns`` selects.
    static let columnCount = 10

    /// A row that does not hold the columns of an event.
    struct NoEvent: Error {}

    /// A `jsonb` cell whose bytes are not the binary format's version 1 and text.
    struct NotJSONB: Error {}

    /// The event in the next cells of a row of ``columns``; nil when they are null (a page of
    /// the whole log with no event). Cell by cell, from its bytes (``BinaryCells``).
    static func event(_ cells: inout BinaryCells) throws -> RecordedEvent? {
        guard let position = try cells.optionalInt64("position") else {
            try cells.skip(columnCount - 1)
            return nil
        }
        let transaction = try cells.transactionID("transaction_id")
        let stream = try cells.string("stream")
        let version = try cells.int64("version")
        let id = try cells.uuid("id")
        let type = try cells.string("type")
        let schemaVersion = try cells.int32("schema_version")
        let data = try JSONBText.data(cells.nextValue("data"))
        let recordedAt = try cells.date("recorded_at")
        let metadata = try JSONBText.metadata(cells.nextValue("metadata"))
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: transaction, position: position), stream: stream, version: version,
            id: id, type: type, schemaVersion: Int(schemaVersion), data: data, metadata: metadata, recordedAt: recordedAt)
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
