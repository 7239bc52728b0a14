/// Work for a connection's thread: a prepared statement, which a connection may send in one
/// pipeline with others, or a session of blocking calls that has the connection to itself.
enum LibPQJob: Sendable {
    case statement(StatementJob)
    case session(SessionJob)

    /// Answers the job with `error` without running it.
    func fail(_ error: LibPQError) {
        switch self {
        case .statement(let job): job.complete(.failure(error))
        case .session(let job): job.fail(error)
        }
    }

    var isPipelinable: Bool {
        if case .statement(let job) = self { return job.pipelinable }
        return false
    }
}

/// A prepared statement, its parameters, and what to do with its result, which is valid
/// during that call alone, on the connection's thread.
struct StatementJob: Sendable {
    let sql: PreparedSQL
    let parameters: [LibPQParameter]
    /// Whether it may share a pipeline with others: its result is small (an append, a
    /// count), so the server never blocks writing it while the client still sends.
    let pipelinable: Bool
    let complete: @Sendable (Result<LibPQResult, LibPQError>) -> Void
}

/// A body that runs on the connection's thread with the connection to itself (a transaction
/// of several statements, the migrations); `fail` when it cannot run.
struct SessionJob: Sendable {
    let run: @Sendable (LibPQConnection) -> Void
    let fail: @Sendable (LibPQError) -> Void
}
