import EventLog
import Foundation
import PostgresNIO

/// A page of the whole log after a checkpoint, in (transaction id, position) order, of the
/// transactions below the visibility horizon only; every row carries that horizon and
/// whether any stored event lies at or past it (held back), after the event's columns, and
/// a page with no event is one row of those alone. Each combination of filters is a
/// statement of its own, so that each is planned for what it tests.
enum ReadAllStatement {
    /// The row of a page: the horizon, whether an event was held back (both nil where they
    /// were not read, see ``decode(_:withHorizon:)``), and an event unless the page is empty.
    typealias Row = (horizon: UInt64?, heldBack: Bool?, event: RecordedEvent?)

    /// Unfiltered.
    struct All: LoopDecodedStatement {
        static let name = "commons_read_all"
        static let sql = ReadAllStatement.sql(conditions: "", lists: 0)
        var checkpoint: Checkpoint
        var limit: Int64
        var parameters: [PostgresData] { ReadAllStatement.parameters(checkpoint, limit: limit) }
        func decodeRow(_ row: PostgresRow) throws -> Row { try ReadAllStatement.decode(row, withHorizon: true) }
        func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row { try ReadAllStatement.decode(row, withHorizon: first) }
    }

    /// Events of some categories.
    struct Categories: LoopDecodedStatement {
        static let name = "commons_read_all_categories"
        static let sql = ReadAllStatement.sql(conditions: "AND e.category = ANY($3)", lists: 1)
        var checkpoint: Checkpoint
        var categories: [String]
        var limit: Int64
        var parameters: [PostgresData] { ReadAllStatement.parameters(checkpoint, categories, limit: limit) }
        func decodeRow(_ row: PostgresRow) throws -> Row { try ReadAllStatement.decode(row, withHorizon: true) }
        func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row { try ReadAllStatement.decode(row, withHorizon: first) }
    }

    /// Events of some types.
    struct Types: LoopDecodedStatement {
        static let name = "commons_read_all_types"
        static let sql = ReadAllStatement.sql(conditions: "AND e.type = ANY($3)", lists: 1)
        var checkpoint: Checkpoint
        var types: [String]
        var limit: Int64
        var parameters: [PostgresData] { ReadAllStatement.parameters(checkpoint, types, limit: limit) }
        func decodeRow(_ row: PostgresRow) throws -> Row { try ReadAllStatement.decode(row, withHorizon: true) }
        func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row { try ReadAllStatement.decode(row, withHorizon: first) }
    }

    /// Events of some types within some categories.
    struct CategoriesAndTypes: LoopDecodedStatement {
        static let name = "commons_read_all_categories_types"
        static let sql = ReadAllStatement.sql(conditions: "AND e.category = ANY($3) AND e.type = ANY($4)", lists: 2)
        var checkpoint: Checkpoint
        var categories: [String]
        var types: [String]
        var limit: Int64
        var parameters: [PostgresData] { ReadAllStatement.parameters(checkpoint, categories, types, limit: limit) }
        func decodeRow(_ row: PostgresRow) throws -> Row { try ReadAllStatement.decode(row, withHorizon: true) }
        func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row { try ReadAllStatement.decode(row, withHorizon: first) }
    }

    /// Events of some categories, each with the stored keys its sealed values name when it
    /// is of one of `keyTypes` (see ``keyed(_:)``).
    struct CategoriesWithKeys: LoopDecodedStatement {
        typealias Row = (horizon: UInt64?, heldBack: Bool?, event: RecordedEvent?, keys: ByteBuffer?)
        static let name = "commons_read_all_categories_keys"
        static let sql = ReadAllStatement.keyed(ReadAllStatement.sql(conditions: "AND e.category = ANY($3)", lists: 1, keyList: 5))
        var checkpoint: Checkpoint
        var categories: [String]
        var limit: Int64
        var keyTypes: [String]
        var parameters: [PostgresData] {
            ReadAllStatement.parameters(checkpoint, categories, limit: limit) + [PostgresData(binding: keyTypes)]
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try decodeRow(row, first: true) }
        func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row {
            var cells = BinaryCells(row)
            let event = try EventRow.event(&cells)
            guard first else {
                try cells.skip(2)
                return (nil, nil, event, try cells.nextBytes())
            }
            return (try cells.transactionID("horizon"), try cells.bool("held_back"), event, try cells.nextBytes())
        }
    }

    /// Adds to each row of a page the stored keys of the owners its event's sealed values name
    /// (the `keyId` of each member of its body that is a UUID: sealed values are members of
    /// the body, so one level is all the path need look through), when its type is one of the
    /// list `$keyList`: one `bytea` of `owner (16 bytes) ‖ length (int4, -1 for a destroyed
    /// key) ‖ value` for each, null when none (``storedKeys(_:into:)`` reads it). So a projection
    /// that opens what events seal has its keys in the same round trip as its page.
    private static func keyed(_ sql: (select: String, keyList: Int)) -> String {
        sql.select + """

            LEFT JOIN LATERAL (
                SELECT string_agg(uuid_send(k.owner) || int4send(coalesce(octet_length(k.material), -1)) || coalesce(k.material, ''::bytea), ''::bytea) AS keys
                FROM personal_data_keys k
                WHERE e.type = ANY($\(sql.keyList)) AND k.owner IN (
                    SELECT (v #>> '{}')::uuid FROM jsonb_path_query(e.data, 'lax $.*.keyId') v
                    WHERE jsonb_typeof(v) = 'string'
                      AND (v #>> '{}') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')) k ON true
            """
    }

    /// The owners and stored values of a ``CategoriesWithKeys`` row's keys cell.
    static func storedKeys(_ cell: ByteBuffer, into keys: inout [UUID: Data?]) throws {
        var cell = cell
        while cell.readableBytes > 0 {
            guard let owner = cell.readUUIDBytes(), let length = cell.readInteger(as: Int32.self) else {
                throw BinaryCells.Malformed(description: "a stored key's owner or length is cut short")
            }
            if length < 0 {
                keys[owner] = .some(nil)
                continue
            }
            guard let value = cell.readBytes(length: Int(length)) else {
                throw BinaryCells.Malformed(description: "a stored key's value is cut short")
            }
            keys[owner] = .some(Data(value))
        }
    }

    /// The statement with `conditions` on the events after the checkpoint ($1, $2), which
    /// test `lists` array parameters ($3…); the limit is the last parameter. `OFFSET 0` keeps
    /// the horizon's row a subquery of its own, so that the probe for held-back events runs
    /// once per page rather than once per row. The probe compares the log's largest
    /// transaction id (one step down the global-order index) with the horizon: asked as
    /// `EXISTS (… WHERE transaction_id >= horizon)`, PostgreSQL could not know the horizon
    /// when planning and scanned the whole table, which found nothing in the common case:
    /// 3.5 ms a page at 11,000 events, growing with the log.
    private static func sql(conditions: String, lists: Int, keyList: Int) -> (select: String, keyList: Int) {
        (sql(conditions: conditions, lists: lists, keys: ", k.keys"), keyList)
    }

    private static func sql(conditions: String, lists: Int, keys: String = "") -> String {
        let limit = 3 + lists
        return """
            SELECT \(EventRow.columns), h.horizon, h.held_back\(keys)
            FROM (
                SELECT x.horizon, coalesce((SELECT max(b.transaction_id) FROM events b) >= x.horizon, false) AS held_back
                FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) x
                OFFSET 0) h
            LEFT JOIN LATERAL (
                SELECT * FROM events e
                WHERE (e.transaction_id, e.position) > ($1, $2) AND e.transaction_id < h.horizon \(conditions)
                ORDER BY e.transaction_id, e.position LIMIT $\(limit)) e ON true
            """
    }

    private static func parameters(_ checkpoint: Checkpoint, _ lists: [String]..., limit: Int64) -> [PostgresData] {
        var parameters = [PostgresData(binding: TransactionID(checkpoint.transaction)), PostgresData(binding: checkpoint.position)]
        parameters.reserveCapacity(3 + lists.count)
        for list in lists { parameters.append(PostgresData(binding: list)) }
        parameters.append(PostgresData(binding: limit))
        return parameters
    }

    /// The row's event, and the horizon and held-back flag after it when `withHorizon` is set.
    /// They are the same on every row of a page, so the event-loop form reads them from its
    /// first row alone: two cells fewer for every other row measured a tenth or more of
    /// read-all's pace (`commons bench eventlog`).
    private static func decode(_ row: PostgresRow, withHorizon: Bool) throws -> Row {
        var cells = BinaryCells(row)
        let event = try EventRow.event(&cells)
        guard withHorizon else { return (nil, nil, event) }
        return (try cells.transactionID("horizon"), try cells.bool("held_back"), event)
    }
}
