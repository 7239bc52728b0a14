import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// Where the store's prepared statements run: on one of a few connections of the store's own
/// when one is free, otherwise on PostgresNIO's pool.
///
/// A lease from PostgresNIO 1.33's pool arms two timers when the connection goes back (its
/// idle timeout and its keep-alive, each a task and a sleep) and disarms them when it is
/// taken again: with one writer that was a third of the client's wake-ups (issue 17). The
/// pool's `minimumConnections` would spare the idle timer,
/// but above zero the pool traps when the server goes away (postgres-nio #479, #539; seen here
/// in the replica topology test), so the hot path takes its connections here instead, under
/// a lock, and the pool serves whatever finds them all busy.
///
/// How these connections live and die:
/// - Opened when a statement finds none idle, up to `limit`. When opening fails (the server is
///   down, restarting, refusing) or takes over 3 s, statements use the pool for `retryPause`
///   before another is tried, so they fail, or wait, exactly as the pool makes them.
/// - One idle for longer than `maximumIdle` (60 s, the pool's own idle timeout) is closed
///   rather than reused, as is one the server or the network has closed.
/// - A statement that fails with the server's answer (a constraint, an expectation) leaves
///   its connection as it was. Anything else (the connection lost, the task cancelled, a
///   statement abandoned after its patience, a preparation spoiled) closes it.
final class StatementConnections: Sendable {
    private struct Idle {
        let own: OwnConnection
        let since: ContinuousClock.Instant
    }

    private struct State {
        var idle: [Idle] = []
        var open = 0
        var nextID = 0
        var retryAfter: ContinuousClock.Instant?
        var closed = false
    }

    private enum Choice {
        case reuse(OwnConnection)
        case open(id: Int)
        case pool
    }

    let client: PostgresClient
    let limit: Int
    private let configuration: PostgresConnection.Configuration
    private let maximumIdle: Duration
    private let retryPause: Duration
    private let state = Mutex(State())
    private let readsRunAgain = Atomic(0)

    /// - Parameters:
    ///   - client: the pool, for statements that find every own connection busy.
    ///   - configuration: how to open one; it must set the session up as the pool's are.
    ///   - limit: at most this many own connections at once.
    init(
        client: PostgresClient, configuration: PostgresConnection.Configuration, limit: Int,
        maximumIdle: Duration = .seconds(60), retryPause: Duration = .seconds(1)
    ) {
        self.client = client
        var configuration = configuration
        // A statement waits for a new own connection only briefly: past this it runs on the
        // pool, which makes it wait, or fail, as it would have anyway.
        configuration.options.connectTimeout = .seconds(3)
        self.configuration = configuration
        self.limit = max(0, limit)
        self.maximumIdle = maximumIdle
        self.retryPause = retryPause
    }

    deinit {
        // A connection must be closed before it is released (PostgresNIO asserts it).
        for idle in state.withLock({ $0.idle }) { idle.own.connection.closeWithoutWaiting() }
    }

    /// How many own connections are open or being opened (for tests).
    var openConnections: Int { state.withLock(\.open) }

    /// How many reads failed on an own connection and ran again on the pool (for tests).
    var readsRunAgainOnThePool: Int { readsRunAgain.load(ordering: .relaxed) }

    /// Runs `statement` and returns its rows, as ``PostgresClient/executeAbandonable(_:logger:patience:)``
    /// does on the pool: the caller gets an answer when its task is cancelled or `patience` passes.
    func execute<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger, patience: Duration = .seconds(30)
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        guard let own = await take(logger: logger) else {
            return try await client.executeAbandonable(statement, logger: logger, patience: patience)
        }
        let connection = own.connection
        do {
            // On the connection's own event loop: the statement is written and its rows read
            // there without hopping between threads (EventLoopTaskExecutor).
            let rows = try await abandonable(patience: patience, on: EventLoopTaskExecutor(connection.eventLoop)) {
                var rows: [Statement.Row] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
            giveBack(own, usable: true)
            return rows
        } catch let error as PSQLError where error.code == .server && !PostgresClient.spoilsPreparedStatements(error) {
            giveBack(own, usable: true)
            throw error
        } catch {
            giveBack(own, usable: false)
            throw error
        }
    }

    /// Runs `statement` and returns its rows, as ``execute(_:logger:patience:)`` does, but on
    /// an own connection its rows are decoded on the connection's event loop as they arrive
    /// (``LoopDecodedStatement``).
    ///
    /// That form is PostgresNIO's older interface, which reports failures as `PostgresError`
    /// rather than `PSQLError`, the type the store and ``PostgresAvailability`` read. So a
    /// statement that fails there for any reason but the caller's cancellation or its patience
    /// closes the connection and runs again on the pool (with a patience of its own), which
    /// fails, or succeeds, as it always has: these are reads, and running one twice changes
    /// nothing.
    func collect<Statement: LoopDecodedStatement>(
        _ statement: Statement, logger: Logger, patience: Duration = .seconds(30)
    ) async throws -> [Statement.Row] {
        guard let own = await take(logger: logger) else {
            return try await client.executeAbandonable(statement, logger: logger, patience: patience)
        }
        do {
            let rows = try await abandonable(patience: patience, own.collect(statement))
            giveBack(own, usable: true)
            return rows
        } catch let error where error is CancellationError || error is PostgresQueryAbandoned {
            giveBack(own, usable: false)
            throw error
        } catch {
            giveBack(own, usable: false)
            readsRunAgain.add(1, ordering: .relaxed)
            logger.debug("a read failed on an own connection; running it on the pool", metadata: ["error": "\(String(reflecting: error))"])
            return try await client.executeAbandonable(statement, logger: logger, patience: patience)
        }
    }

    /// Runs `statement` on one of the store's own connections that is idle now, its rows
    /// decoded on the connection's event loop (``LoopDecodedStatement``), with no task and no
    /// wait of the caller's: the answer completes the future on that loop. Nil when no own
    /// connection is idle; the caller then takes the way that waits for one.
    ///
    /// After `patience` without an answer the future fails with ``PostgresQueryAbandoned``
    /// and the connection is closed; any other failure closes it too. For statements that
    /// are sent and forgotten (the store's `NOTIFY`), where a task, a deadline and the
    /// caller's wake-up cost more than the statement (issue 17).
    func collectNow<Statement: LoopDecodedStatement>(_ statement: Statement, patience: Duration = .seconds(30)) -> EventLoopFuture<[Statement.Row]>? {
        guard let own = takeIdle() else { return nil }
        let loop = own.connection.eventLoop
        let promise = loop.makePromise(of: [Statement.Row].self)
        let settled = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: loop)
        let settle: @Sendable (Result<[Statement.Row], any Error>, Bool) -> Void = { result, usable in
            guard !settled.value else { return }
            settled.value = true
            self.giveBack(own, usable: usable)
            promise.completeWith(result)
        }
        let timeout = loop.scheduleTask(in: .nanoseconds(Int64(patience / .nanoseconds(1)))) {
            settle(.failure(PostgresQueryAbandoned(patience: patience)), false)
        }
        own.collect(statement).hop(to: loop).whenComplete { result in
            timeout.cancel()
            if case .success = result { settle(result, true) } else { settle(result, false) }
        }
        return promise.futureResult
    }

    /// Closes the idle connections; those in use close when they come back.
    func close() {
        let idle = state.withLock { state -> [Idle] in
            state.closed = true
            state.open -= state.idle.count
            defer { state.idle = [] }
            return state.idle
        }
        for entry in idle { entry.own.connection.closeWithoutWaiting() }
    }

    /// An idle connection that is still open and fresh, or nil; never opens one.
    private func takeIdle() -> OwnConnection? {
        let now = ContinuousClock.now
        var stale: [OwnConnection] = []
        let taken = state.withLock { popFreshIdle(&$0, now: now, stale: &stale) }
        for own in stale { own.connection.closeWithoutWaiting() }
        return taken
    }

    /// Takes the newest idle connection that is open and fresh; those found closed or idle
    /// past ``maximumIdle`` on the way go to `stale`, to be closed outside the lock.
    private func popFreshIdle(_ state: inout State, now: ContinuousClock.Instant, stale: inout [OwnConnection]) -> OwnConnection? {
        while let idle = state.idle.popLast() {
            if idle.own.connection.isClosed || now - idle.since > maximumIdle {
                stale.append(idle.own)
                state.open -= 1
                continue
            }
            return idle.own
        }
        return nil
    }

    /// An idle connection, a new one, or nil: use the pool.
    private func take(logger: Logger) async -> OwnConnection? {
        let now = ContinuousClock.now
        var stale: [OwnConnection] = []
        let choice = state.withLock { state -> Choice in
            if let idle = popFreshIdle(&state, now: now, stale: &stale) { return .reuse(idle) }
            guard !state.closed, state.open < limit, state.retryAfter.map({ now >= $0 }) ?? true else { return .pool }
            state.open += 1
            state.nextID += 1
            return .open(id: state.nextID)
        }
        for own in stale { own.connection.closeWithoutWaiting() }
        switch choice {
        case .reuse(let connection):
            return connection
        case .pool:
            return nil
        case .open(let id):
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
                state.withLock { $0.retryAfter = nil }
                return OwnConnection(connection)
            } catch {
                logger.debug("no connection of the store's own; using the pool", metadata: ["error": "\(error)"])
                state.withLock { state in
                    state.open -= 1
                    state.retryAfter = .now + retryPause
                }
                return nil
            }
        }
    }

    private func giveBack(_ own: OwnConnection, usable: Bool) {
        let kept = state.withLock { state in
            guard usable, !state.closed, !own.connection.isClosed else {
                state.open -= 1
                return false
            }
            state.idle.append(Idle(own: own, since: .now))
            return true
        }
        if !kept { own.connection.closeWithoutWaiting() }
    }
}

extension StatementConnections {
    /// Sends `notification` in a `NOTIFY` statement of its own: on a connection that is idle
    /// now, from the event loop, with no task (a task, its deadline and the wake-ups between
    /// them cost more than the statement; issue 17), else on the next free one.
    func send(_ notification: AppendNotifier.Notification, logger: Logger, sent: @escaping @Sendable ((any Error)?) -> Void) {
        let statement = NotifyStatement(channels: notification.channels, payload: notification.payload)
        if let sending = collectNow(statement) {
            sending.whenComplete { result in
                if case .failure(let error) = result { sent(error) } else { sent(nil) }
            }
            return
        }
        Task {
            do {
                _ = try await execute(statement, logger: logger)
                sent(nil)
            } catch {
                sent(error)
            }
        }
    }
}
