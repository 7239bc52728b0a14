import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// The store reads its rows' cells from their bytes (``BinaryCells``): whatever format the
/// row's description claims, they must read what PostgresNIO's own decoders read.
@Suite("PostgreSQL cells read from their bytes")
struct BinaryCellsTests {
    private static let values = """
        SELECT 42::int8, NULL::int8, '9007199254740993'::xid8, (-3)::int4, true, false, 'tëxt ✓'::text,
               'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '2026-11-28 12:34:56.789012+00'::timestamptz,
               '1999-12-31 23:59:59.5+00'::timestamptz
        """

    @Test("each type reads as PostgresNIO's decoder reads it, on the pool's async rows and on the event loop")
    func sameAsPostgresNIO() async throws {
        let store = try await PostgresEventStore(configuration: try Backend.freshSchema("cells"), logger: Logger(label: "test"))
        var expected: [(Int64, Int64?, TransactionID, Int32, Bool, Bool, String, UUID, Date, Date)] = []
        var read: [Values] = []
        for try await row in try await store.client.query(PostgresQuery(unsafeSQL: Self.values)) {
            expected.append(try row.decode((Int64, Int64?, TransactionID, Int32, Bool, Bool, String, UUID, Date, Date).self))
            read.append(try Values(row))
        }
        let onTheLoop = try await store.statements.collect(ValuesStatement(), logger: Logger(label: "test"))
        #expect(store.statements.readsRunAgainOnThePool == 0)
        await store.shutdown()

        let want = try #require(expected.first)
        for values in read + onTheLoop {
            #expect(values.int8 == want.0 && values.nullInt8 == want.1 && values.xid8 == want.2.value)
            #expect(values.int4 == want.3 && values.yes == want.4 && values.no == want.5)
            #expect(values.text == want.6 && values.uuid == want.7)
            #expect(values.timestamp == want.8 && values.beforeEpoch == want.9)
        }
        #expect(read.count == 1 && onTheLoop.count == 1)
    }

    @Test("a cell of another width, a null where a value belongs, and a missing cell are errors, not guesses")
    func malformedCells() async throws {
        let store = try await PostgresEventStore(configuration: try Backend.freshSchema("cells"), logger: Logger(label: "test"))
        for try await row in try await store.client.query("SELECT 1::int4, NULL::int8") {
            var cells = BinaryCells(row)
            #expect(throws: BinaryCells.Malformed.self) { try cells.int64("narrow") }
            #expect(throws: BinaryCells.Malformed.self) { try cells.int64("null") }
            #expect(throws: BinaryCells.Malformed.self) { try cells.int64("missing") }
        }
        await store.shutdown()
    }

    @Test("an event's packed fields read as PostgresNIO reads each column on its own")
    func packedFieldsSameAsColumns() async throws {
        let store = try await PostgresEventStore(configuration: try Backend.freshSchema("cells"), logger: Logger(label: "test"))
        _ = try await store.append(to: "packed-1", expected: .noStream, events: [testEvent("First"), testEvent("Sécond ✓")])
        _ = try await store.append(to: "packed-ünïcode", expected: .noStream, events: [testEvent("Third")])
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT \(EventRow.columns), e.position, e.transaction_id, e.version, e.schema_version, e.recorded_at, e.id, e.stream, e.type
                FROM \(store.configuration.schema).events e ORDER BY e.position
                """)
        var checked = 0
        for try await row in try await store.client.query(query) {
            var cells = BinaryCells(row)
            let packed = try EventRow.PackedFields(try cells.nextValue("packed"))
            try cells.skip(EventRow.columnCount - 1)
            let columns = try row.decode(
                (ByteBuffer, ByteBuffer, ByteBuffer, Int64, TransactionID, Int64, Int32, Date, UUID, String, String).self)
            #expect(packed.position == columns.3 && packed.transaction == columns.4.value && packed.version == columns.5)
            #expect(packed.schemaVersion == columns.6 && packed.recordedAt == columns.7 && packed.id == columns.8)
            #expect(packed.stream == columns.9 && packed.type == columns.10)
            checked += 1
        }
        #expect(checked == 3)
        // Cut inside the fixed-width fields; and a stream's length past the bytes that follow.
        let cutShort = ByteBuffer(bytes: [UInt8](repeating: 0, count: 51))
        var streamPastTheEnd = ByteBuffer(bytes: [UInt8](repeating: 0, count: 52))
        streamPastTheEnd.writeInteger(Int32(8))
        streamPastTheEnd.writeString("short")
        for bytes in [cutShort, streamPastTheEnd] {
            #expect(throws: BinaryCells.Malformed.self) { try EventRow.PackedFields(bytes) }
        }
        await store.shutdown()
    }
}

private struct Values: Sendable {
    var int8: Int64, nullInt8: Int64?, xid8: UInt64, int4: Int32, yes: Bool, no: Bool, text: String, uuid: UUID
    var timestamp: Date, beforeEpoch: Date

    init(_ row: PostgresRow) throws {
        var cells = BinaryCells(row)
        int8 = try cells.int64("int8")
        nullInt8 = try cells.optionalInt64("null")
        xid8 = try cells.transactionID("xid8")
        int4 = try cells.int32("int4")
        yes = try cells.bool("true")
        no = try cells.bool("false")
        text = try cells.string("text")
        uuid = try cells.uuid("uuid")
        timestamp = try cells.date("timestamptz")
        beforeEpoch = try cells.date("before 2000")
    }
}

private struct ValuesStatement: LoopDecodedStatement {
    static let sql = BinaryCellsTests.valuesSQL
    var parameters: [PostgresData] { [] }
    func decodeRow(_ row: PostgresRow) throws -> Values { try Values(row) }
}

extension BinaryCellsTests {
    fileprivate static var valuesSQL: String { values }
}
