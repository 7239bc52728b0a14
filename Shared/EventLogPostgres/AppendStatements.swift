import Foundation
import PostgresNIO

// The statements of the append path, prepared once per connection. Their SQL names the
// log's objects without a schema: the store's connections have `search_path` set to it.

/// What an append statement answers: the stream's new version, the last event's position
/// and its transaction; all nil when nothing was appended.
package typealias AppendRow = (version: Int64?, position: Int64?, transaction: UInt64?)

/// One event in one plain statement with scalar binds, the common case, cheaper than the
/// batch function: the expected-version check and the insert in one round trip. A
/// concurrent append to the same stream surfaces as a unique violation on (stream, version).
struct AppendOneStatement: PostgresPreparedStatement {
    static let name = "commons_append_one"
    static let sql = """
        WITH head AS (
            SELECT coalesce((SELECT e.version FROM events e WHERE e.stream = $1 ORDER BY e.version DESC LIMIT 1), 0) AS version
        ), inserted AS (
            INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata)
            SELECT $1, $2, head.version + 1, $3, $4, $5, $6, $7
            FROM head
            WHERE $8 = -1 OR ($8 = -2 AND head.version > 0) OR head.version = $8
            RETURNING version, position, transaction_id
        )
        SELECT i.version, i.position, i.transaction_id FROM head LEFT JOIN inserted i ON true
        """

    var stream: String
    var category: String
    var expectedCode: Int64
    var batch: EncodedBatch

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.appendOneEvent(stream: stream, category: category, batch: batch)
        bindings.append(expectedCode)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> AppendRow {
        let (version, position, transaction) = try row.decode((Int64?, Int64?, TransactionID?).self)
        return (version, position, transaction?.value)
    }
}

/// The first event of a new stream (`.noStream`, or `.exact(0)`): version 1, without the
/// look for the stream's head that ``AppendOneStatement`` makes. Every stream holds a
/// version 1 (versions start there and no event is ever removed), so when the stream exists
/// nothing is inserted and no row comes back, as when ``AppendOneStatement``'s expectation
/// fails, and the store answers the same. `ON CONFLICT … DO NOTHING` rather than the unique
/// violation: a taken email or slug is refused often enough that each should not be an
/// `ERROR` in PostgreSQL's log, and pgbench found it as fast as the plain `INSERT` (both
/// about a tenth faster than the head's look, one client; issue 17). Most appends are these:
/// a listing posted, an account opened, a donation made.
struct AppendFirstStatement: PostgresPreparedStatement {
    static let name = "commons_append_first"
    static let sql = """
        INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata)
        VALUES ($1, $2, 1, $3, $4, $5, $6, $7)
        ON CONFLICT (stream, version) DO NOTHING
        RETURNING version, position, transaction_id
        """

    var stream: String
    var category: String
    var batch: EncodedBatch

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.appendOneEvent(stream: stream, category: category, batch: batch)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> AppendRow {
        let (version, position, transaction) = try row.decode((Int64, Int64, TransactionID).self)
        return (version, position, transaction.value)
    }
}

extension PostgresBindings {
    /// `$1`–`$7` of the single-event statements: the stream, its category, and the batch's
    /// one event (id, type, schema version, data, metadata).
    mutating func appendOneEvent(stream: String, category: String, batch: EncodedBatch) {
        append(stream)
        append(category)
        append(batch.ids[0])
        append(batch.types[0])
        append(batch.schemaVersions[0])
        append(batch.data[0])
        append(batch.metadata[0])
    }
}

/// A batch in one plain statement, as ``AppendOneStatement`` appends one event: the
/// expected-version check and the insert of every event, in order, in one round trip.
/// Nothing is inserted when the expectation fails; the row then has no position. (It
/// replaced a call of the PL/pgSQL `append_events` of the first migration, which costs
/// more per call; that function stays for older binaries during a rolling upgrade.)
struct AppendBatchStatement: PostgresPreparedStatement {
    static let name = "commons_append_batch_rows"
    static let sql = """
        WITH head AS (
            SELECT coalesce((SELECT e.version FROM events e WHERE e.stream = $1 ORDER BY e.version DESC LIMIT 1), 0) AS version
        ), inserted AS (
            INSERT INTO events (stream, category, version, id, type, schema_version, data, metadata)
            SELECT $1, $2, head.version + n.ord, n.id, n.type, n.schema_version, n.data, n.metadata
            FROM head, unnest($4::uuid[], $5::text[], $6::integer[], $7::jsonb[], $8::jsonb[])
                 WITH ORDINALITY AS n(id, type, schema_version, data, metadata, ord)
            WHERE $3 = -1 OR ($3 = -2 AND head.version > 0) OR head.version = $3
            ORDER BY n.ord
            RETURNING version, position, transaction_id
        )
        SELECT max(i.version), max(i.position), min(i.transaction_id) FROM inserted i
        """

    var stream: String
    var category: String
    var expectedCode: Int64
    var batch: EncodedBatch

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(stream)
        bindings.append(category)
        bindings.append(expectedCode)
        bindings.append(batch.ids)
        bindings.append(batch.types)
        bindings.append(batch.schemaVersions)
        bindings.append(batch.data)
        bindings.append(batch.metadata)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> AppendRow {
        let (version, position, transaction) = try row.decode((Int64?, Int64?, TransactionID?).self)
        return (version, position, transaction?.value)
    }
}

/// A single-event append statement that can carry the store's paced `NOTIFY`
/// (``AppendNotifier/carry(category:)``): the same statement with a call of `pg_notify` for
/// each channel joined to its answer, so the notification is sent as the append commits.
protocol NotifyingAppend: PostgresPreparedStatement where Row == AppendRow {
    /// The statement's SQL with `pg_notify` over the channels in `$channels` with the payload
    /// in the parameter after it.
    static var notifyingSQL: String { get }
}

extension NotifyingAppend {
    /// Joins one call of `pg_notify` a channel to a statement's single answer row: when the
    /// statement answers no row (nothing was appended), nothing is sent.
    static func notifying(_ select: String, channels parameter: Int) -> String {
        select + "\nCROSS JOIN LATERAL (SELECT count(pg_notify(c, $\(parameter + 1))) FROM unnest($\(parameter)::text[]) AS c) notified"
    }
}

extension AppendFirstStatement: NotifyingAppend {
    static let notifyingSQL = notifying("WITH inserted AS (\n\(sql)\n)\nSELECT i.version, i.position, i.transaction_id FROM inserted i", channels: 8)
}

extension AppendOneStatement: NotifyingAppend {
    static let notifyingSQL = notifying(sql, channels: 9)
}

/// `Append` with the notification it carries.
struct CarryingNotification<Append: NotifyingAppend>: PostgresPreparedStatement {
    static var name: String { Append.name + "_notifying" }
    static var sql: String { Append.notifyingSQL }

    var append: Append
    var notification: AppendNotifier.Notification

    func makeBindings() throws -> PostgresBindings {
        var bindings = try append.makeBindings()
        bindings.append(notification.channels)
        bindings.append(notification.payload)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> AppendRow { try append.decodeRow(row) }
}
