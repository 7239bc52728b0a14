import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// How the log's statements select an event, and how a row of them becomes one.
enum EventRow {
    /// The columns every event-returning statement selects, from a table or subquery
    /// aliased `e`, in the order ``event(_:)`` reads them. The transaction id
    /// comes as `xid8`, the body as text, and the metadata as six text columns: decoding a
    /// JSON document per row costs more than the rest of the row together.
    static let columns = """
        e.position, e.transaction_id, e.stream, e.version, e.id, e.type, e.schema_version, e.data::text, e.recorded_at, \
        e.metadata->>'correlationId', e.metadata->>'causationId', e.metadata->>'actorId', e.metadata->>'requestId', e.metadata->>'service', \
        e.metadata->>'traceparent'
        """

    /// A row that does not hold the columns of an event.
    struct NoEvent: Error {}

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
        // The bytes as they come: a String would validate and copy them once more.
        let data = Data(try cells.decodeNext(ByteBuffer.self).readableBytesView)
        let recordedAt = try cells.decodeNext(Date.self)
        let metadata = EventMetadata(
            correlationId: try cells.decodeNext(String?.self), causationId: try cells.decodeNext(String?.self),
            actorId: try cells.decodeNext(String?.self), requestId: try cells.decodeNext(String?.self),
            service: try cells.decodeNext(String?.self), traceparent: try cells.decodeNext(String?.self))
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
