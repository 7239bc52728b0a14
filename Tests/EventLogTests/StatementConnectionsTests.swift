import EventLog
@testable import EventLogPostgres
import EventLogTestSupport
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Synchronization
import Testing

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
        let own = try await Self.ownBackend(store)
        let pool = try await Self.poolBackend(store)
        let sleeping = Task { try await store.statements.execute(SleepStatement(), logger: Logger(label: "test")) }
        // Wait until the sleep holds the own connection (up to 10 s: with a hundred tests
        // beside it on two cores, its task was once not started within half a second).
        var sleepers = try await Self.sleepingBackends(store)
        for _ in 0..<2_000 {
            guard sleepers == 0 else { break }
            try await Task.sleep(for: .milliseconds(5))
            sleepers = try await Self.sleepingBackends(store)
        }
        #expect(sleepers == 1)

        // On the pool: not the busy own connection, and no second own one (the limit is 1).
        // Not necessarily the pool connection seen before: the pool opens another when that
        // one is leased, as it can be by the appends' NOTIFY finding the own one busy too.
        let during = try await Self.ownBackend(store)
        #expect(during != own && pool != own)
        #expect(store.statements.openConnections == 1)
        _ = try await sleeping.value
        #expect(try await Self.ownBackend(store) == own)
        #expect(store.statements.openConnections == 1)
        await store.shutdown()
    }

    @Test("a statement sent now runs on an idle own connection and leaves it idle; with none idle it is not sent; one unanswered past its patience is abandoned and its connection closed")
    func sentNowOnAnIdleConnection() async throws {
        let store = try await Self.store(ownConnections: 1)
        let own = try await Self.settledOwnBackend(store)
        let sent = try #require(store.statements.collectNow(BackendOnTheLoop()), "the own connection is idle")
        #expect(try await sent.get() == [own])
        #expect(try await Self.settledOwnBackend(store) == own, "given back, still open")

        let sleeping = Task { try await store.statements.execute(SleepStatement(), logger: Logger(label: "test")) }
        var busy = false
        for _ in 0..<2_000 where !busy {
            busy = try await Self.sleepingBackends(store) == 1
            if !busy { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(busy)
        #expect(store.statements.collectNow(BackendOnTheLoop()) == nil, "no own connection is idle")
        _ = try await sleeping.value

        let abandoned = try #require(store.statements.collectNow(SleepOnTheLoop(), patience: .milliseconds(100)))
        await #expect(throws: PostgresQueryAbandoned.self) { try await abandoned.get() }
        #expect(store.statements.openConnections == 0, "closed, not given back")
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
        var alive = try await Self.isAlive(own)
        for _ in 0..<100 {
            guard alive else { break }
            try await Task.sleep(for: .milliseconds(20))
            alive = try await Self.isAlive(own)
        }
        #expect(!alive)
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
        nowhere.port = try FreePorts.pick()  // nothing listens there
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
        _ = try await Self.eventually {
            guard try await store.readAll(after: .start, limit: 100, filter: .all).events.count == 30 else { throw TestSetupError("held back") }
        }
        // The appends' NOTIFY takes the one own connection for a moment; a read then would run on the pool.
        _ = try await Self.eventually {
            guard store.notifier.isQuiet else { throw TestSetupError("notifying") }
        }
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

    /// ``ownBackend(_:)`` once no other statement holds the own connection: an append's
    /// `NOTIFY` follows it in a task of its own, and may hold it for a moment.
    private static func settledOwnBackend(_ store: PostgresEventStore) async throws -> Int32 {
        let pool = try await poolBackend(store)
        for _ in 0..<50 {
            let pid = try await ownBackend(store)
            if pid != pool { return pid }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await ownBackend(store)
    }

    /// The server process behind the pool's one connection.
    private static func poolBackend(_ store: PostgresEventStore) async throws -> Int32 {
        for try await pid in try await store.client.query("SELECT pg_backend_pid()").decode(Int32.self) { return pid }
        throw TestSetupError("no backend pid")
    }

    /// How many of the store's sessions are inside ``SleepStatement``.
    private static func sleepingBackends(_ store: PostgresEventStore) async throws -> Int {
        try await onTheSide("SELECT count(*)::int8 FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(0.5)%' AND pid <> pg_backend_pid()", Int64.self)
            .first.map(Int.init) ?? 0
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
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try Backend.freshSchema("side").connection(), id: 9,
            logger: logger)
        var values: [Value] = []
        do {
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Value.self) {
                values.append(value)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
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

/// Holds its connection for half a second.
private struct SleepStatement: PostgresPreparedStatement {
    static let sql = "SELECT pg_sleep(0.5)"
    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws {}
}

/// A statement that answers after a second, in the event-loop form.
private struct SleepOnTheLoop: LoopDecodedStatement {
    static let sql = "SELECT pg_sleep(1)"
    var parameters: [PostgresData] { [] }
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
