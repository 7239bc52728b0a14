import EventLog
import EventLogTestSupport
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Synchronization
import Testing

@testable import EventLogPostgres

/// The store runs its prepared statements on connections of its own, beside the pool
/// (issue 17): which connection a statement gets, and what happens to one that fails.
@Suite("PostgreSQL statements on the store's own connections")
struct StatementConnectionsTests {
    @Test("statements reuse one own connection, not the pool's, and a statement the server refuses leaves it open")
    func reusedAndKeptAfterServerErrors() async throws {
        let store = try await Self.store(ownConnections: 1)
        let own = try await Self.ownBackend(store)
        #expect(try await Self.ownBackend(store) == own)
        #expect(try await Self.poolBackend(store) != own)

        _ = try await store.append(to: "own-1", expected: .noStream, events: [testEvent()])
        await #expect(throws: EventStoreError.self) {
            try await store.append(to: "own-1", expected: .noStream, events: [testEvent()])
        }
        #expect(try await Self.settledOwnBackend(store) == own)
        #expect(store.statements.openConnections == 1)
        await store.shutdown()
    }

    @Test("an own connection the server ends is replaced, and appends go on")
    func replacedAfterTheServerEndsIt() async throws {
        let store = try await Self.store(ownConnections: 1)
        let lost = try await Self.ownBackend(store)
        _ = try await store.append(to: "own-2", expected: .noStream, events: [testEvent()])
        try await Self.terminate(lost, store: store)

        // As with the pool, a statement may meet the dead connection once before it is noticed;
        // the append is idempotent, so it is tried again as a client would.
        let second = testEvent()
        let result = try await Self.eventually { try await store.append(to: "own-2", expected: .exact(1), events: [second]) }
        #expect(result.streamVersion == 2)
        let replacement = try await Self.settledOwnBackend(store)
        #expect(replacement != lost)
        #expect(try await Self.poolBackend(store) != replacement)
        #expect(store.statements.openConnections == 1)
        #expect(try await store.read(stream: "own-2").count == 2)
        await store.shutdown()
    }

    @Test("a statement that finds every own connection busy runs on the pool")
    func busyOwnConnectionsFallBackToThePool() async throws {
        let store = try await Self.store(ownConnections: 1)
        let own = try await Self.settledOwnBackend(store)
        let pool = try await Self.poolBackend(store)
        #expect(pool != own)
        let lock = try await HeldLock.take()
        let blocked = Task {
            try await store.statements.execute(LockStatement(key: lock.key), logger: Logger(label: "test"), patience: .seconds(3_600))
        }
        try await lock.waitUntilBlocking(own)

        // On the pool: not the busy own connection, and no second own one (the limit is 1).
        let during = try await Self.ownBackend(store)
        #expect(during != own)
        #expect(store.statements.openConnections == 1)
        try await lock.release()
        _ = try await blocked.value
        #expect(try await Self.ownBackend(store) == own)
        #expect(store.statements.openConnections == 1)
        await store.shutdown()
    }

    @Test(
        "a statement sent now runs on an idle own connection and leaves it idle; with none idle it is not sent; one unanswered past its patience is abandoned and its connection closed"
    )
    func sentNowOnAnIdleConnection() async throws {
        let store = try await Self.store(ownConnections: 1)
        let own = try await Self.settledOwnBackend(store)
        let sent = try #require(store.statements.collectNow(BackendOnTheLoop()), "the own connection is idle")
        #expect(try await sent.get() == [own])
        #expect(try await Self.settledOwnBackend(store) == own, "given back, still open")

        let lock = try await HeldLock.take()
        let blocked = Task {
            try await store.statements.execute(LockStatement(key: lock.key), logger: Logger(label: "test"), patience: .seconds(3_600))
        }
        try await lock.waitUntilBlocking(own)
        #expect(store.statements.collectNow(BackendOnTheLoop()) == nil, "no own connection is idle")
        try await lock.release()
        _ = try await blocked.value

        // Unanswered for as long as the test holds the lock: only its patience can end it.
        let unanswered = try await HeldLock.take()
        let abandoned = try #require(store.statements.collectNow(LockOnTheLoop(key: unanswered.key), patience: .milliseconds(100)))
        await #expect(throws: PostgresQueryAbandoned.self) { try await abandoned.get() }
        #expect(store.statements.openConnections == 0, "closed, not given back")
        try await unanswered.release()
        #expect(try await Self.settledOwnBackend(store) != own, "a new own connection replaces it")
        await store.shutdown()
    }

    @Test("with no own connections every statement runs on the pool; shutting down closes the own ones")
    func noneConfiguredAndClosedOnShutdown() async throws {
        let pooled = try await Self.store(ownConnections: 0)
        #expect(try await Self.ownBackend(pooled) == (try await Self.poolBackend(pooled)))
        #expect(pooled.statements.openConnections == 0)
        await pooled.shutdown()

        let store = try await Self.store(ownConnections: 2)
        let own = try await Self.ownBackend(store)
        #expect(store.statements.openConnections == 1)
        await store.shutdown()
        #expect(store.statements.openConnections == 0)
        try await waitFor("its server process to end") { try await !Self.isAlive(own) }
    }

    @Test("a statement whose preparation fails on the pool closes its connection, and the next statement runs on a new one")
    func spoiledPreparationsDoNotFailTheNextStatement() async throws {
        let store = try await Self.store(ownConnections: 0)
        var backend = try await Self.poolBackend(store)
        // The pool holds one connection: the next statement is lent whatever the failed one left.
        // A hundred rounds, because the pool may lend a connection that was closed before it
        // had subscribed to its close only in a narrow window (this hung once in about eight CI
        // runs at ten rounds, and within 2,000 rounds every time beside two busy cores).
        for _ in 0..<100 {
            await #expect(throws: PSQLError.self) {
                try await store.client.executeAbandonable(MissingTableStatement(), logger: Logger(label: "test"))
            }
            let next = try await store.client.executeAbandonable(BackendStatement(), logger: Logger(label: "test"))
            #expect(next.count == 1 && next.first != backend)
            backend = next.first ?? backend
        }
        await store.shutdown()
    }

    @Test("while no own connection can be opened, statements run on the pool")
    func unreachableOwnConnectionsFallBackToThePool() async throws {
        let store = try await Self.store(ownConnections: 0)
        var nowhere = store.configuration
        nowhere.port = try FreePorts.pick() // nothing listens there
        let statements = StatementConnections(client: store.client, configuration: try nowhere.connection(searchPath: true), limit: 1)
        let pool = try await Self.poolBackend(store)
        for _ in 0..<3 {
            #expect(try await statements.execute(BackendStatement(), logger: Logger(label: "test")).first == pool)
        }
        #expect(statements.openConnections == 0)
        statements.close()
        await store.shutdown()
    }

    @Test("reads decode their rows on an own connection's event loop, exactly as the pool's async rows decode")
    func readsInTheEventLoopForm() async throws {
        let store = try await Self.store(ownConnections: 1)
        let own = try await Self.ownBackend(store)
        var metadata = EventMetadata(service: "tests")
        metadata.correlationId = UUID().uuidString
        metadata.actorId = "pérson-1"
        let events = (1...30).map { n in
            NewEvent(type: "Read\(n % 3)", data: Data(#"{"n":\#(n),"title":"Lámpara \#(n)"}"#.utf8), metadata: metadata)
        }
        _ = try await store.append(to: "own-read-1", expected: .noStream, events: Array(events[..<20]))
        _ = try await store.append(to: "own-read-2", expected: .noStream, events: Array(events[20...]))

        // Both appends are visible once no older transaction holds them back.
        try await waitFor("both appends to be visible") { try await store.readAll(after: .start, limit: 100, filter: .all).events.count == 30 }
        // The appends' NOTIFY takes the one own connection for a moment; a read then would run on the pool.
        try await waitFor("the store's notifications to be sent") { store.notifier.isQuiet }
        let page = try await store.readAll(after: .start, limit: 25, filter: .all)
        let onThePool = try await store.client.executeAbandonable(
            ReadAllStatement.All(checkpoint: .start, limit: 25), logger: Logger(label: "test"))
        #expect(page.events.count == 25)
        #expect(page.events == onThePool.compactMap(\.event))
        // The horizon repeats on every row; the event-loop form reads it from the first alone.
        let onTheLoop = try await store.statements.collect(ReadAllStatement.All(checkpoint: .start, limit: 25), logger: Logger(label: "test"))
        #expect(onTheLoop.compactMap(\.event) == page.events)
        #expect(onTheLoop.first?.horizon != nil && onTheLoop.first?.heldBack == false)
        #expect(onTheLoop.dropFirst().allSatisfy { $0.horizon == nil && $0.heldBack == nil })
        #expect(onThePool.allSatisfy { $0.horizon != nil && $0.horizon == onThePool.first?.horizon && $0.heldBack == false })
        // Past the last event: one row of the horizon alone, its event's cells passed over.
        let last = try #require(try await store.readAll(after: .start, limit: 100, filter: .all).events.last).checkpoint
        let empty = try await store.statements.collect(ReadAllStatement.All(checkpoint: last, limit: 25), logger: Logger(label: "test"))
        #expect(empty.count == 1 && empty.first?.event == nil && empty.first?.horizon != nil)
        #expect(try await store.readAll(after: last, limit: 25, filter: .all).reachedHead)
        #expect(page.events.map(\.id) == events[..<25].map(\.id))
        #expect(page.events.first?.metadata == metadata)
        let backwards = try await store.read(stream: "own-read-1", from: nil, direction: .backwards, limit: 5)
        #expect(backwards.map(\.version) == [20, 19, 18, 17, 16])
        let filtered = try await store.readAll(after: .start, limit: 100, filter: EventFilter(types: ["Read0"]))
        #expect(filtered.events.map(\.type) == Array(repeating: "Read0", count: 10))

        #expect(try await store.statements.collect(BackendOnTheLoop(), logger: Logger(label: "test")) == [own])
        #expect(store.statements.readsRunAgainOnThePool == 0)
        await store.shutdown()
    }

    @Test("a read that fails on an own connection runs again on the pool, and the connection is replaced")
    func failedReadsRunAgainOnThePool() async throws {
        let store = try await Self.store(ownConnections: 1)
        let first = try await Self.ownBackend(store)
        let pool = try await Self.poolBackend(store)

        // The first decoding fails (as a row PostgresNIO's older interface could not hand over
        // would); the pool's run of the same statement answers.
        let failing = FailingOnce()
        #expect(try await store.statements.collect(failing, logger: Logger(label: "test")) == [pool])
        #expect(failing.failures.load(ordering: .relaxed) == 1)
        #expect(store.statements.readsRunAgainOnThePool == 1)

        let replacement = try await Self.ownBackend(store)
        #expect(replacement != first && replacement != pool)
        #expect(try await store.statements.collect(BackendOnTheLoop(), logger: Logger(label: "test")) == [replacement])
        #expect(store.statements.openConnections == 1)
        await store.shutdown()
    }

    // MARK: Helpers

    /// A store on a fresh schema with a pool of one connection and `ownConnections` of its own.
    private static func store(ownConnections: Int) async throws -> PostgresEventStore {
        var configuration = try Backend.freshSchema("own")
        configuration.maximumConnections = 1
        configuration.statementConnections = ownConnections
        return try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
    }

    /// The server process that runs the store's next prepared statement.
    private static func ownBackend(_ store: PostgresEventStore) async throws -> Int32 {
        guard let pid = try await store.statements.execute(BackendStatement(), logger: Logger(label: "test")).first
        else { throw TestSetupError("no backend pid") }
        return pid
    }

    /// ``ownBackend(_:)`` once the store sends no notification: an append's `NOTIFY` follows
    /// it on the own connection when that is idle, and holds it for a moment.
    private static func settledOwnBackend(_ store: PostgresEventStore) async throws -> Int32 {
        try await waitFor("the store's notifications to be sent") { store.notifier.isQuiet }
        return try await ownBackend(store)
    }

    /// The server process behind the pool's one connection.
    private static func poolBackend(_ store: PostgresEventStore) async throws -> Int32 {
        for try await pid in try await store.client.query("SELECT pg_backend_pid()").decode(Int32.self) { return pid }
        throw TestSetupError("no backend pid")
    }

    private static func isAlive(_ pid: Int32) async throws -> Bool {
        try await onTheSide("SELECT count(*)::int8 FROM pg_stat_activity WHERE pid = \(pid)", Int64.self).first != 0
    }

    /// Ends a server process, as a restart or fail-over would.
    private static func terminate(_ pid: Int32, store: PostgresEventStore) async throws {
        #expect(try await onTheSide("SELECT pg_terminate_backend(\(pid))", Bool.self) == [true])
    }

    /// Runs `sql` on a connection of the test's own.
    private static func onTheSide<Value: PostgresDecodable & Sendable>(_ sql: String, _ type: Value.Type) async throws -> [Value] {
        let connection = try await sideConnection()
        do {
            let values = try await query(sql, Value.self, on: connection)
            try await connection.close()
            return values
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A connection of the test's own, beside the store's.
    fileprivate static func sideConnection() async throws -> PostgresConnection {
        try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try Backend.freshSchema("side").connection(), id: 9,
            logger: Logger(label: "test"))
    }

    /// `sql`'s rows on `connection`, read to the end.
    fileprivate static func query<Value: PostgresDecodable & Sendable>(
        _ sql: String, _ type: Value.Type, on connection: PostgresConnection
    ) async throws -> [Value] {
        var values: [Value] = []
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test")).decode(Value.self) {
            values.append(value)
        }
        return values
    }

    /// `body`'s result, trying again (up to 20 times, 100 ms apart) while it throws.
    private static func eventually<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 1..<20 {
            if let result = try? await body() { return result }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await body()
    }
}

/// The server process a statement runs in.
private struct BackendStatement: PostgresPreparedStatement {
    static let sql = "SELECT pg_backend_pid()"
    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
}

/// A statement whose preparation fails: its table does not exist (42P01).
private struct MissingTableStatement: PostgresPreparedStatement {
    static let sql = "SELECT 1 FROM no_such_table"
    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws {}
}

/// An advisory lock that a session of the test's own holds until ``release()``: a statement
/// that waits for it (``LockStatement``, ``LockOnTheLoop``) keeps its connection busy until then.
private struct HeldLock {
    let key = Int64.random(in: 1 ... .max)
    let connection: PostgresConnection
    /// The server process of the session that holds it.
    let holder: Int32

    static func take() async throws -> HeldLock {
        let connection = try await StatementConnectionsTests.sideConnection()
        guard let holder = try await StatementConnectionsTests.query("SELECT pg_backend_pid()", Int32.self, on: connection).first
        else { throw TestSetupError("no backend pid") }
        let lock = HeldLock(connection: connection, holder: holder)
        // Read to the end: the lock is held once the answer is complete, not at its first line.
        _ = try await StatementConnectionsTests.query("SELECT true FROM pg_advisory_lock(\(lock.key))", Bool.self, on: connection)
        return lock
    }

    /// Waits until server process `pid` waits for this lock.
    func waitUntilBlocking(_ pid: Int32) async throws {
        try await waitFor("server process \(pid) to wait for the test's lock") {
            try await StatementConnectionsTests.query("SELECT \(holder) = ANY(pg_blocking_pids(\(pid)))", Bool.self, on: connection) == [true]
        }
    }

    /// Lets the statements that wait for it go on.
    func release() async throws { try await connection.close() }
}

/// Waits for ``HeldLock`` `key`, then answers one empty row.
private struct LockStatement: PostgresPreparedStatement {
    static let sql = "SELECT pg_advisory_xact_lock($1)"
    let key: Int64
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(key)
        return bindings
    }
    func decodeRow(_ row: PostgresRow) throws {}
}

/// ``LockStatement`` in the event-loop form.
private struct LockOnTheLoop: LoopDecodedStatement {
    static let sql = "SELECT pg_advisory_xact_lock($1)"
    let key: Int64
    var parameters: [PostgresData] { [PostgresData(binding: key)] }
    func decodeRow(_ row: PostgresRow) throws {}
}

/// The server process a statement runs in, read in the event-loop form.
private struct BackendOnTheLoop: LoopDecodedStatement {
    static let sql = "SELECT pg_backend_pid()"
    var parameters: [PostgresData] { [] }
    func decodeRow(_ row: PostgresRow) throws -> Int32 {
        var cells = BinaryCells(row)
        return try cells.int32("pg_backend_pid")
    }
}

/// ``BackendOnTheLoop``, whose first row fails to decode.
private final class FailingOnce: LoopDecodedStatement {
    struct Refused: Error {}
    static let sql = "SELECT pg_backend_pid()"
    let failures = Atomic(0)
    var parameters: [PostgresData] { [] }
    func decodeRow(_ row: PostgresRow) throws -> Int32 {
        if failures.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged { throw Refused() }
        var cells = BinaryCells(row)
        return try cells.int32("pg_backend_pid")
    }
}
