import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// How the log's statements select an event, and how a row of them becomes one.
enum EventRow {
    /// The columns every event-returning statement selects, from a table or subquery
    /// aliased `e`, in the order ``event(from:offset:)`` reads them. The transaction id
    /// comes as `xid8`, the body as text, and the metadata as six text columns: decoding a
    /// JSON document per row costs more than the rest of the row together.
    static let columns = """
        e.position, e.transaction_id, e.stream, e.version, e.id, e.type, e.schema_version, e.data::text, e.recorded_at, \
        e.metadata->>'correlationId', e.metadata->>'causationId', e.metadata->>'actorId', e.metadata->>'requestId', e.metadata->>'service', \
        e.metadata->>'traceparent'
        """

    /// The event in `row`'s columns from `offset` on.
    static func event(from row: PostgresRandomAccessRow, offset: Int) throws -> RecordedEvent {
        let position = try row[offset].decode(Int64.self, context: .default)
        let transaction = try row[offset + 1].decode(TransactionID.self, context: .default)
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: transaction.value, position: position),
            stream: try row[offset + 2].decode(String.self, context: .default),
            version: try row[offset + 3].decode(Int64.self, context: .default),
            id: try row[offset + 4].decode(UUID.self, context: .default),
            type: try row[offset + 5].decode(String.self, context: .default),
            schemaVersion: Int(try row[offset + 6].decode(Int32.self, context: .default)),
            // The bytes as they come: a String would validate and copy them once more.
            data: Data(try row[offset + 7].decode(ByteBuffer.self, context: .default).readableBytesView),
            metadata: EventMetadata(
                correlationId: try row[offset + 9].decode(String?.self, context: .default),
                causationId: try row[offset + 10].decode(String?.self, context: .default),
                actorId: try row[offset + 11].decode(String?.self, context: .default),
                requestId: try row[offset + 12].decode(String?.self, context: .default),
                service: try row[offset + 13].decode(String?.self, context: .default),
                traceparent: try row[offset + 14].decode(String?.self, context: .default)),
            recordedAt: try row[offset + 8].decode(Date.self, context: .default))
    }
}
