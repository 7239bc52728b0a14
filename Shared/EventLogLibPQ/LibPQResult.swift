import CLibPQ
import EventLog
import EventLogPostgres

/// A statement's result in libpq's memory, read on the connection's thread while the
/// result lives: cells in PostgreSQL's binary format, read from their bytes.
struct LibPQResult {
    let pointer: OpaquePointer

    var rows: Int { Int(PQntuples(pointer)) }

    /// A cell's bytes; nil when it is null.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer? {
        guard column < PQnfields(pointer) else { return nil }
        if PQgetisnull(pointer, Int32(row), Int32(column)) != 0 { return nil }
        let length = Int(PQgetlength(pointer, Int32(row), Int32(column)))
        return UnsafeRawBufferPointer(start: PQgetvalue(pointer, Int32(row), Int32(column)), count: length)
    }

    /// A cell of a fixed-width integer type (`int8`, `int4`, `xid8`, `bool` as `UInt8`); nil when null.
    func integer<Value: FixedWidthInteger>(_ row: Int, _ column: Int, as _: Value.Type = Value.self) throws -> Value? {
        guard let cell = bytes(row, column) else { return nil }
        guard cell.count == MemoryLayout<Value>.size else {
            throw LibPQError(sqlState: nil, message: "column \(column) is \(cell.count) bytes, not \(MemoryLayout<Value>.size)")
        }
        return Value(bigEndian: cell.loadUnaligned(as: Value.self))
    }

    /// A `text` cell; nil when null.
    func text(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The event in the three cells of the log's event columns from `column` on; nil when
    /// they are null (a page of the whole log with no event).
    func event(_ row: Int, from column: Int = 0) throws -> RecordedEvent? {
        guard let packed = bytes(row, column) else { return nil }
        guard let data = bytes(row, column + 1), let metadata = bytes(row, column + 2) else {
            throw LibPQError(sqlState: nil, message: "an event's body or metadata is null")
        }
        return try LogStatementText.event(packed: packed, data: data, metadata: metadata)
    }

    /// Every row's event, which every row must hold.
    func events() throws -> [RecordedEvent] {
        try (0..<rows).map { row in
            guard let event = try event(row) else { throw LibPQError(sqlState: nil, message: "a row holds no event") }
            return event
        }
    }
}
