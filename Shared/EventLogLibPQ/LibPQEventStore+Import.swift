import EventLog
import EventLogPostgres
import Foundation

extension LibPQEventStore {
    public func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult {
        guard !events.isEmpty else { return ImportResult() }
        let batch = try EncodedBatch(
            events.map { NewEvent(id: $0.id, type: $0.type, schemaVersion: $0.schemaVersion, data: $0.data, metadata: $0.metadata) })
        for event in events where StreamName(event.stream) == nil { throw EventStoreError.invalidStreamName(event.stream) }
        do {
            return try await pool.session { connection in
                try connection.execute("BEGIN")
                do {
                    let result = try Self.importOnce(events, batch: batch, on: connection)
                    try connection.execute("COMMIT")
                    return result
                } catch {
                    try? connection.execute("ROLLBACK")
                    throw error
                }
            }
        } catch let error as LibPQError where error.sqlState == "23505" {
            // Only a concurrent import can get here; the clash check names the event otherwise.
            throw EventStoreError.importConflict(eventId: events[0].id, reason: error.detail ?? "duplicate key")
        }
    }

    /// The import's statements, in the transaction the caller opened: skips what is stored
    /// already as it is, refuses what clashes, inserts the rest in order.
    private static func importOnce(_ events: [RecordedEvent], batch: EncodedBatch, on connection: LibPQConnection) throws -> ImportResult {
        var wanted: [UUID: (String, Int64)] = [:]
        for event in events { wanted[event.id] = (event.stream, event.version) }
        let stored = try connection.execute(
            "SELECT id, stream, version FROM events WHERE id = ANY($1::uuid[])", [.uuidArray(batch.ids)]
        ) {
            try placed($0)
        }
        var present = Set<UUID>()
        for (id, stream, version) in stored {
            guard let expected = wanted[id], expected == (stream, version) else {
                throw EventStoreError.importConflict(eventId: id, reason: "stored already as \(stream) version \(version)")
            }
            present.insert(id)
        }
        let keep = events.indices.filter { !present.contains(events[$0].id) }
        guard !keep.isEmpty else { return ImportResult(imported: 0, alreadyPresent: present.count) }
        let ids = LibPQParameter.uuidArray(keep.map { events[$0].id })
        let streams = LibPQParameter.array(keep.map { events[$0].stream })
        let versions = LibPQParameter.int8Array(keep.map { events[$0].version })
        // A place (stream, version) that holds another event already: name the event.
        let clashes = try connection.execute(
            """
            SELECT n.id, n.stream, n.version FROM unnest($1::uuid[], $2::text[], $3::bigint[]) AS n(id, stream, version)
            JOIN events e ON e.stream = n.stream AND e.version = n.version LIMIT 1
            """, [ids, streams, versions]
        ) { try placed($0) }
        if let (id, stream, version) = clashes.first {
            throw EventStoreError.importConflict(eventId: id, reason: "\(stream) already has a version \(version)")
        }
        let kept = try EncodedBatch(
            keep.map { events[$0] }.map { NewEvent(id: $0.id, type: $0.type, schemaVersion: $0.schemaVersion, data: $0.data, metadata: $0.metadata) })
        let columns = columns(kept)
        try connection.execute(
            """
            INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata, recorded_at)
            SELECT n.stream, n.category, n.version, n.id, n.type, n.schema_version, n.data, n.metadata, to_timestamp(n.recorded_at)
            FROM unnest($1::text[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::integer[], $7::jsonb[], $8::jsonb[], $9::float8[])
                 WITH ORDINALITY AS n(stream, category, version, id, type, schema_version, data, metadata, recorded_at, ord)
            ORDER BY n.ord
            """,
            [
                streams, .array(keep.map { events[$0].category }), versions, ids, columns[1], columns[2], columns[3], columns[4],
                .textArray(keep.map { String(events[$0].recordedAt.timeIntervalSince1970) }),
            ])
        return ImportResult(imported: keep.count, alreadyPresent: present.count)
    }

    /// Rows of (id, stream, version).
    private static func placed(_ result: LibPQResult) throws -> [(UUID, String, Int64)] {
        try (0..<result.rows).map { row in
            guard let id = result.bytes(row, 0), id.count == 16, let stream = result.text(row, 1),
                let version = try result.integer(row, 2, as: Int64.self)
            else { throw LibPQError(sqlState: nil, message: "an event's place is malformed") }
            return (UUID(uuid: id.loadUnaligned(as: uuid_t.self)), stream, version)
        }
    }
}
