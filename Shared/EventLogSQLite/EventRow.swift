import Codecs
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
        id = event.id.lowercasedText
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
        while let row = try cursor.next() { events.append(try event(row)) }
        return events
    }

    /// The first `limit` events of several queries that each return events in order of
    /// position, merged in that order; each query is stepped only as far as the merge needs.
    static func fetchMerged(_ db: Database, walks: [(sql: String, arguments: StatementArguments)], limit: Int) throws -> [RecordedEvent] {
        if walks.count == 1, let walk = walks.first { return try fetch(db, sql: walk.sql, arguments: walk.arguments) }
        let cursors = try walks.map { try Row.fetchCursor(db, sql: $0.sql, arguments: $0.arguments) }
        var next = try cursors.map { try $0.next().map(event) }
        var events: [RecordedEvent] = []
        while events.count < limit {
            var earliest: Int?
            for index in next.indices {
                guard let candidate = next[index] else { continue }
                if let best = earliest, next[best]!.checkpoint.position < candidate.checkpoint.position { continue }
                earliest = index
            }
            guard let index = earliest else { break }
            events.append(next[index]!)
            next[index] = try cursors[index].next().map(event)
        }
        return events
    }

    /// The event in a row of ``columns``.
    private static func event(_ row: Row) throws -> RecordedEvent {
        guard let id = try row.withUnsafeData(atIndex: 3, { text in text.flatMap { $0.withUnsafeBytes { UUID(utf8: $0) } } }) else {
            throw DatabaseError(message: "event id \(row[3] as String? ?? "null") is not a UUID")
        }
        // The body's text, copied once into `Data` (SQLite hands text out as bytes too).
        let data: Data = row[6]
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: 0, position: row[0]),
            stream: row[1], version: row[2], id: id, type: row[4], schemaVersion: row[5],
            data: data,
            metadata: try row.withUnsafeData(atIndex: 8) { json in
                try (json ?? Data()).withUnsafeBytes { try EventMetadata(jsonObject: $0) }
            },
            recordedAt: Date(timeIntervalSince1970: row[7]))
    }
}
