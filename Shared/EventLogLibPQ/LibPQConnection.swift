import CLibPQ

/// One libpq connection, used by one thread alone: every call here blocks that thread, never
/// an event loop or the cooperative pool. It connects when first used and again after it is
/// lost; a statement sent on a connection that fails answers that failure at once.
final class LibPQConnection {
    private let connectionString: String
    private var connection: OpaquePointer?
    /// The statements prepared on the current connection, by name.
    private var prepared: Set<String> = []

    init(connectionString: String) {
        self.connectionString = connectionString
    }

    deinit { disconnect() }

    /// The open connection, made now if there is none.
    func connected() throws(LibPQError) -> OpaquePointer {
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        disconnect()
        let made = PQconnectdb(connectionString)
        guard let made, PQstatus(made) == CONNECTION_OK else {
            let error = LibPQError(connection: made, "could not connect")
            PQfinish(made)
            throw error
        }
        connection = made
        return made
    }

    /// Closes the connection; the next use makes a new one.
    func disconnect() {
        if let connection { PQfinish(connection) }
        connection = nil
        prepared = []
    }

    /// Runs `body` on a result that `result` answered, then frees it; throws the result's
    /// error when it failed, and drops a connection that was lost meanwhile.
    private func consume<Output>(_ result: OpaquePointer?, _ body: (LibPQResult) throws -> Output) throws -> Output {
        defer { PQclear(result) }
        guard let result else {
            let error = LibPQError(connection: connection, "no answer")
            disconnect()
            throw error
        }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            let error = LibPQError(result: result)
            if let connection, PQstatus(connection) != CONNECTION_OK { disconnect() }
            throw error
        }
        return try body(LibPQResult(pointer: result))
    }

    /// Runs one statement and waits for its result (a session's statements). Binary results.
    func execute<Output>(_ sql: String, _ parameters: [LibPQParameter] = [], _ decode: (LibPQResult) throws -> Output) throws -> Output {
        let connection = try connected()
        let result = parameters.withLibPQArrays { count, values, lengths, formats in
            PQexecParams(connection, sql, count, nil, values, lengths, formats, 1)
        }
        return try consume(result, decode)
    }

    /// Runs one statement whose rows do not matter.
    func execute(_ sql: String, _ parameters: [LibPQParameter] = []) throws {
        try execute(sql, parameters) { _ in () }
    }

    /// Prepares `sql` on this connection unless it is already.
    private func prepare(_ sql: PreparedSQL) throws {
        guard !prepared.contains(sql.name) else { return }
        let connection = try connected()
        let result = sql.types.withUnsafeBufferPointer { types in
            PQprepare(connection, sql.name, sql.sql, Int32(types.count), types.baseAddress)
        }
        try consume(result) { _ in () }
        prepared.insert(sql.name)
    }

    /// Sends the statements in one pipeline, each followed by a sync (so each is its own
    /// transaction, and one's failure is its alone), then answers each from its result. A
    /// connection lost on the way answers every statement not yet answered with that loss.
    func run(_ jobs: [StatementJob]) {
        var ready: [StatementJob] = []
        for job in jobs {
            do {
                try prepare(job.sql)
                ready.append(job)
            } catch {
                job.complete(.failure(error as? LibPQError ?? LibPQError(sqlState: nil, message: "\(error)")))
            }
        }
        guard !ready.isEmpty else { return }
        guard let connection, PQenterPipelineMode(connection) == 1 else {
            let error = LibPQError(connection: connection, "could not enter pipeline mode")
            for job in ready { job.complete(.failure(error)) }
            disconnect()
            return
        }
        var sent = 0
        for job in ready {
            let queued = job.parameters.withLibPQArrays { count, values, lengths, formats in
                PQsendQueryPrepared(connection, job.sql.name, count, values, lengths, formats, 1)
            }
            guard queued == 1, PQpipelineSync(connection) == 1 else { break }
            sent += 1
        }
        let answered = receive(ready[..<sent], on: connection)
        if answered < ready.count {
            let error = LibPQError(connection: connection, "the connection was lost")
            for job in ready[answered...] { job.complete(.failure(error)) }
            disconnect()
            return
        }
        if PQexitPipelineMode(connection) != 1 { disconnect() }
    }

    /// Reads the results of `jobs`, sent in a pipeline each with its sync, and answers each;
    /// returns how many were answered, all of them unless the connection failed.
    private func receive(_ jobs: ArraySlice<StatementJob>, on connection: OpaquePointer) -> Int {
        var index = jobs.startIndex
        var answered = false
        var nulls = 0
        while index < jobs.endIndex {
            guard let result = PQgetResult(connection) else {
                // The end of one statement's results; a second in a row means nothing is coming.
                nulls += 1
                if nulls > 1 || PQstatus(connection) != CONNECTION_OK { break }
                continue
            }
            nulls = 0
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                if !answered { jobs[index].complete(.failure(LibPQError(sqlState: nil, message: "the statement answered nothing"))) }
                index += 1
                answered = false
                continue
            }
            guard !answered else { continue }
            answered = true
            if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                jobs[index].complete(.success(LibPQResult(pointer: result)))
            } else {
                jobs[index].complete(.failure(LibPQError(result: result)))
            }
        }
        return index - jobs.startIndex + (answered ? 1 : 0)
    }
}
