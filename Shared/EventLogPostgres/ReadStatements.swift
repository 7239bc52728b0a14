import EventLog
import Foundation
import PostgresNIO

// The statements of the read paths, prepared once per connection (unqualified names: the
// store's connections have `search_path` set to its schema). Each returns events in the
// columns of ``EventRow``.

/// A stream from a version on, forwards.
struct ReadForwardsStatement: LoopDecodedStatement {
    static let name = "commons_read_forwards"
    static let sql = """
        SELECT \(EventRow.columns) FROM events e WHERE e.stream = $1 AND e.version >= $2 ORDER BY e.version LIMIT $3
        """

    var stream: String
    var version: Int64
    var limit: Int64

    var parameters: [PostgresData] { eventParameters(stream, version, limit) }
    func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try EventRow.event(in: row) }
}

/// A stream from a version down, backwards.
struct ReadBackwardsStatement: LoopDecodedStatement {
    static let name = "commons_read_backwards"
    static let sql = """
        SELECT \(EventRow.columns) FROM events e WHERE e.stream = $1 AND e.version <= $2 ORDER BY e.version DESC LIMIT $3
        """

    var stream: String
    var version: Int64
    var limit: Int64

    var parameters: [PostgresData] { eventParameters(stream, version, limit) }
    func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try EventRow.event(in: row) }
}

private func eventParameters(_ stream: String, _ version: Int64, _ limit: Int64) -> [PostgresData] {
    [PostgresData(binding: stream), PostgresData(binding: version), PostgresData(binding: limit)]
}

/// One event by its id.
struct EventByIDStatement: PostgresPreparedStatement {
    static let name = "commons_event_by_id"
    static let sql = "SELECT \(EventRow.columns) FROM events e WHERE e.id = $1"

    var id: UUID

    func makeBindings() -> PostgresBindings { .of(id) }

    func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try EventRow.event(in: row) }
}

/// The checkpoint of the last event below the visibility horizon.
/// How many events follow a checkpoint, counted up to a limit (a projection's lag).
struct CountAfterStatement: PostgresPreparedStatement {
    static let name = "commons_count_after"
    static let sql = """
        SELECT count(*) FROM (SELECT 1 FROM events e WHERE (e.transaction_id, e.position) > ($1, $2) ORDER BY e.transaction_id, e.position LIMIT $3) c
        """
    typealias Row = Int64
    var checkpoint: Checkpoint
    var limit: Int64

    func makeBindings() -> PostgresBindings { .of(TransactionID(checkpoint.transaction), checkpoint.position, limit) }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// Whether a checkpoint is within the log: its transaction began (below the snapshot's
/// `xmax`, the first id not yet given) and its position was handed out (at most the largest,
/// a lookup in the primary key). A checkpoint can be reached and not yet visible (``HeadStatement``).
struct ReachedStatement: PostgresPreparedStatement {
    static let name = "commons_reached"
    static let sql = """
        SELECT $1 < pg_snapshot_xmax(pg_current_snapshot()) AND $2 <= coalesce((SELECT max(position) FROM events), 0)
        """
    typealias Row = Bool
    var checkpoint: Checkpoint

    func makeBindings() -> PostgresBindings { .of(TransactionID(checkpoint.transaction), checkpoint.position) }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

struct HeadStatement: PostgresPreparedStatement {
    static let name = "commons_head"
    static let sql = """
        SELECT e.transaction_id, e.position FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) h
        JOIN events e ON e.transaction_id < h.horizon
        ORDER BY e.transaction_id DESC, e.position DESC LIMIT 1
        """

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ row: PostgresRow) throws -> Checkpoint {
        let (transaction, position) = try row.decode((TransactionID, Int64).self)
        return Checkpoint(transaction: transaction.value, position: position)
    }
}

/// The log newest first, below the visibility horizon (what a reader can see now) and before
/// a checkpoint, by (transaction id, position) down the global-order index; a list that is
/// null filters nothing.
struct ReadAllBackwardsStatement: PostgresPreparedStatement {
    static let name = "commons_read_all_backwards"
    static let sql = """
        SELECT \(EventRow.columns) FROM events e
        WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot()) AND (e.transaction_id, e.position) < ($1, $2)
          AND ($3::text[] IS NULL OR e.category = ANY($3::text[])) AND ($4::text[] IS NULL OR e.type = ANY($4::text[]))
        ORDER BY e.transaction_id DESC, e.position DESC LIMIT $5
        """

    /// Nil: from the head.
    var before: Checkpoint?
    var categories: [String]?
    var types: [String]?
    var limit: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(TransactionID(before?.transaction ?? UInt64.max))
        bindings.append(before?.position ?? Int64.max)
        for list in [categories, types] {
            if let list { bindings.append(list) } else { bindings.appendNull() }
        }
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> RecordedEvent { try EventRow.event(in: row) }
}
