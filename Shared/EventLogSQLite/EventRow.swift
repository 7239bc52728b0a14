import EventLog
import Foundation
import GRDB

/// How an event is laid out in the SQLite table: ids as lowercase text, JSON as text,
/// times as seconds since 1970.
struct EventRow {
    var id: String
    var type: String
    var schemaVersion: Int
    var data: String
    var metadata: String

    // The metadata is one document, read without a decoder (see
    // `EventMetadata.init(jsonObject:)`): cheaper than six `->>` extractions.
    static let columns = "position, stream, version, id, type, schema_version, data, recorded_at, metadata"

    init(_ event: NewEvent) throws {
        // SQLite's CHECK validates the JSON itself; this only rejects non-objects cheaply.
        guard event.data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{"),
              let data = String(data: event.data, encoding: .utf8)
        else {
            throw EventStoreError.invalidEvent(id: event.id, reason: "the body is not a JSON object")
        }
        id = event.id.uuidString.lowercased()
        type = event.type
        schemaVersion = event.schemaVersion
        self.data = data
        metadata = String(decoding: event.metadata.jsonText, as: UTF8.self)
    }

    func arguments(stream: String, category: String, version: Int64, recordedAt: Double) -> StatementArguments {
        [stream, category, version, id, type, schemaVersion, data, metadata, recordedAt]
    }

    static func fetch(_ db: Database, sql: String, arguments: StatementArguments) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            let idText: String = row[3]
            guard let id = UUID(uuidString: idText) else { throw DatabaseError(message: "event id \(idText) is not a UUID") }
            let dataText: String = row[6]
            events.append(RecordedEvent(
                checkpoint: Checkpoint(transaction: 0, position: row[0]),
                stream: row[1], version: row[2], id: id, type: row[4], schemaVersion: row[5],
                data: Data(dataText.utf8),
                metadata: try row.withUnsafeData(atIndex: 8) { json in
                    try (json ?? Data()).withUnsafeBytes { try EventMetadata(jsonObject: $0) }
                },
                recordedAt: Date(timeIntervalSince1970: row[7])))
        }
        return events
    }
}
