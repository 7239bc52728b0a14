import EventLog
import Foundation

/// A batch's columns, as the append statements take them.
package struct EncodedBatch: Sendable {
    package var ids: [UUID] = []
    package var types: [String] = []
    package var schemaVersions: [Int32] = []
    package var data: [JSONBDocument] = []
    package var metadata: [JSONBDocument] = []

    /// Throws ``EventStoreError/invalidEvent(id:reason:)`` for a body that is not a JSON object.
    package init(_ events: [NewEvent]) throws {
        ids.reserveCapacity(events.count)
        types.reserveCapacity(events.count)
        schemaVersions.reserveCapacity(events.count)
        data.reserveCapacity(events.count)
        metadata.reserveCapacity(events.count)
        // A batch's events mostly share one metadata (one request appends them): its JSON
        // is written once and the same bytes reused while it repeats.
        var previous: (metadata: EventMetadata, document: JSONBDocument)?
        for event in events {
            // PostgreSQL validates the JSON and its UTF-8 itself (22P02, 22021); this only
            // rejects non-objects cheaply.
            guard event.data.first(where: { !Self.isJSONSpace($0) }) == UInt8(ascii: "{") else {
                throw EventStoreError.invalidEvent(id: event.id, reason: "the body is not a JSON object")
            }
            ids.append(event.id)
            types.append(event.type)
            schemaVersions.append(Int32(clamping: event.schemaVersion))
            data.append(JSONBDocument(text: event.data))
            if let previous, previous.metadata == event.metadata {
                metadata.append(previous.document)
            } else {
                let document = JSONBDocument(text: event.metadata.jsonText)
                previous = (event.metadata, document)
                metadata.append(document)
            }
        }
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
