import NIOCore
import PostgresNIO
import Synchronization

/// One of the store's own connections (``StatementConnections``), with the statements it has
/// prepared for the event-loop form of ``LoopDecodedStatement``. Used by one statement at a
/// time; the lock only makes that safe to state.
final class OwnConnection: Sendable {
    let connection: PostgresConnection
    /// By statement name. PostgresNIO names these itself, apart from the statements it
    /// prepares for its async interface, and they live as long as the connection.
    private let prepared = Mutex<[String: PreparedQuery]>([:])

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Runs `statement`, preparing it first on this connection's first use of it, and
    /// collects its rows, each decoded on the connection's event loop as it arrives.
    func collect<Statement: LoopDecodedStatement>(_ statement: Statement) -> EventLoopFuture<[Statement.Row]> {
        let eventLoop = connection.eventLoop
        return prepared(Statement.self).flatMap { query in
            let rows = NIOLoopBoundBox.makeBoxSendingValue([Statement.Row](), eventLoop: eventLoop)
            return query.execute(statement.parameters) { row in
                rows.value.append(try statement.decodeRow(row, first: rows.value.isEmpty))
            }.map { rows.value }
        }
    }

    private func prepared<Statement: LoopDecodedStatement>(_: Statement.Type) -> EventLoopFuture<PreparedQuery> {
        if let query = prepared.withLock({ $0[Statement.name] }) { return connection.eventLoop.makeSucceededFuture(query) }
        return connection.prepare(query: Statement.sql).map { query in
            self.prepared.withLock { $0[Statement.name] = query }
            return query
        }
    }
}
