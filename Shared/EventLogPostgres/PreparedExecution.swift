import Backoff
import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs a prepared statement on a pooled connection and returns its rows, as
    /// ``queryAbandonable(_:logger:patience:file:line:)`` runs a query: the caller gets an
    /// answer when its task is cancelled or `patience` passes, even if the server never answers.
    ///
    /// PostgresNIO prepares a statement on each connection the first time it runs there, by
    /// its type's name, and keeps it for the connection's life; a connection that replaces a
    /// lost one prepares it afresh. It also keeps a failed preparation for the connection's
    /// life, so a statement that fails as only a preparation or a stale plan can (an unknown
    /// table or function while the schema is being recreated, a plan whose result changed)
    /// closes its connection: the pool opens another, which prepares again. The close is
    /// awaited before the connection goes back, and a statement is never run on a connection
    /// that is already closed (``withOpenConnection(_:)``): the pool may not know of the close yet.
    func executeAbandonable<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger, patience: Duration = .seconds(30)
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await abandonable(patience: patience) {
            try await self.withOpenConnection { connection in
                do {
                    var rows: [Statement.Row] = []
                    for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                    return rows
                } catch let error as PSQLError where PostgresClient.spoilsPreparedStatements(error) {
                    try? await connection.close()
                    throw error
                }
            }
        }
    }

    /// Errors that a statement's preparation, or a plan gone stale, raises: syntax and unknown
    /// objects (class 42), a missing schema (3F000) or statement (26000), and "cached plan must
    /// not change result type" (0A000).
    static func spoilsPreparedStatements(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("42") || state == "3F000" || state == "26000" || state == "0A000"
    }

    /// `withConnection`, on a connection that is still open. PostgresNIO's pool learns that a
    /// connection closed only once the task that opened it has subscribed to its close, which
    /// under load can come after the connection was lent, used, closed (a spoiled preparation,
    /// above) and given back; until then the pool lends it again as idle, and a statement
    /// written on it never answers (seen once in about eight CI runs, as a 30 s wait). Such a
    /// connection goes straight back, and the lease is asked for again after a pause that
    /// doubles from 1 ms to 50 ms, until the pool has dropped it and opens another.
    func withOpenConnection<Result>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        var pauses = Backoff(initial: .milliseconds(1), maximum: .milliseconds(50), jitter: 0).attempts()
        while true {
            let lent: Lent<Result> = try await withConnection { connection in
                guard !connection.isClosed else { return .closed }
                return .used(try await body(connection))
            }
            if case .used(let result) = lent { return result }
            try await Task.sleep(for: pauses.next())
        }
    }
}

/// What ``PostgresClient/withOpenConnection(_:)`` got from one lease.
private enum Lent<Result> {
    case used(Result)
    case closed
}
