import NIOCore
import PostgresNIO

/// A prepared statement whose rows the store decodes on the connection's event loop, each as
/// it arrives, when it runs on one of the store's own connections (``StatementConnections/collect(_:logger:patience:)``).
///
/// PostgresNIO's async row sequence costs a cancellation handler, a lock and an executor
/// check for every row it hands out; the event-loop form hands rows to a closure on the loop
/// that read them: one `SELECT` of 200,000 events reads about 1.4 times as fast in that form
/// (`commons bench eventlog`). The
/// event-loop form takes its parameters as `PostgresData`, so a statement states them once,
/// here, and its bindings for the pool are made from them.
protocol LoopDecodedStatement: PostgresPreparedStatement where Row: Sendable {
    /// The statement's parameters, in order ($1, $2, …).
    var parameters: [PostgresData] { get }

    /// A row in the event-loop form, told whether it is the first of its answer: a statement
    /// whose rows repeat something may read it from the first alone. ``decodeRow(_:)`` by default.
    func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row
}

extension LoopDecodedStatement {
    func decodeRow(_ row: PostgresRow, first: Bool) throws -> Row { try decodeRow(row) }

    func makeBindings() -> PostgresBindings {
        let parameters = parameters
        var bindings = PostgresBindings(capacity: parameters.count)
        for parameter in parameters { bindings.append(parameter) }
        return bindings
    }
}

extension PostgresData {
    /// `value` as PostgreSQL's wire format carries it, with its type.
    init<Value: PostgresNonThrowingEncodable>(binding value: Value) {
        var buffer = ByteBuffer()
        value.encode(into: &buffer, context: .default)
        self.init(type: Value.psqlType, formatCode: Value.psqlFormat, value: buffer)
    }
}
