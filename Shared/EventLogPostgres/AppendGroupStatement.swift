import Foundation
import PostgresNIO

/// Single-event appends to different streams, each with its own expectation, in one
/// statement and one transaction: what ``AppendOneStatement`` does for one, for each.
///
/// An append whose expectation fails, or whose row meets a unique key (the stream's next
/// version taken meanwhile, its event id stored already), is skipped rather than failing
/// the others (`ON CONFLICT DO NOTHING`); its row comes back without a position, and the
/// store appends it alone, where every such case has its own answer.
///
/// A `.noStream` append (expected 0, most of them: a listing posted, an account opened)
/// does not look for its stream's head, as ``AppendFirstStatement`` does not: every stream
/// holds a version 1, so when the stream exists its row meets (stream, 1) and is skipped.
struct AppendGroupStatement: PostgresPreparedStatement {
    static let name = "commons_append_group"
    static let sql = """
        WITH input AS (
            SELECT n.*, CASE WHEN n.expected = 0 THEN 0 ELSE coalesce(
                (SELECT e.version FROM events e WHERE e.stream = n.stream ORDER BY e.version DESC LIMIT 1), 0) END AS head
            FROM unnest($1::text[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::integer[], $7::jsonb[], $8::jsonb[])
                 WITH ORDINALITY AS n(stream, category, expected, id, type, schema_version, data, metadata, ord)
        ), inserted AS (
            INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata)
            SELECT stream, category, head + 1, id, type, schema_version, data, metadata FROM input
            WHERE expected = -1 OR (expected = -2 AND head > 0) OR head = expected
            ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING id, version, position, transaction_id
        )
        SELECT i.version, i.position, i.transaction_id FROM input n LEFT JOIN inserted i ON i.id = n.id ORDER BY n.ord
        """

    /// The appends, each of one event, to distinct streams.
    var appends: [GroupedAppend]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(appends.map(\.stream))
        bindings.append(appends.map(\.category))
        bindings.append(appends.map(\.expectedCode))
        bindings.append(appends.map { $0.batch.ids[0] })
        bindings.append(appends.map { $0.batch.types[0] })
        bindings.append(appends.map { $0.batch.schemaVersions[0] })
        bindings.append(appends.map { $0.batch.data[0] })
        bindings.append(appends.map { $0.batch.metadata[0] })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> AppendRow {
        let (version, position, transaction) = try row.decode((Int64?, Int64?, TransactionID?).self)
        return (version, position, transaction?.value)
    }
}

/// One single-event append as the group statement takes it.
package struct GroupedAppend: Sendable {
    package var stream: String
    package var category: String
    package var expectedCode: Int64
    package var batch: EncodedBatch

    package init(stream: String, category: String, expectedCode: Int64, batch: EncodedBatch) {
        self.stream = stream
        self.category = category
        self.expectedCode = expectedCode
        self.batch = batch
    }
}
