import EventLog
import EventLogTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// What only the PostgreSQL log promises: appends are not serialized.
@Suite("PostgreSQL appends")
struct PostgresConcurrencyTests {
    @Test("an open transaction on one stream does not hold back appends to another")
    func independentStreamsCommitConcurrently() async throws {
        let log = try await Backend.postgres.makeLog(holdsTransactions: true)
        let holder = await log.holdTransaction(stream: "slow-1", events: [testEvent("Slow")], hold: .seconds(15))
        _ = try await log.store.append(to: "fast-1", expected: .any, events: [testEvent("Fast")])
        // The fast event is committed but is held back until the slow one is decided. Readers
        // seeing nothing yet proves the append returned while the slow transaction was still
        // open (had it waited for it, both would be visible): no clock needed, so a busy
        // machine cannot fail this.
        let early = try await log.store.readAll(after: .start, limit: 10, filter: .all)
        #expect(early.events.isEmpty)
        #expect(!early.reachedHead, "the fast event is stored and held back: a follower must read again, not wait")
        try await holder.value
        let seen = try await collect(log.store.subscribe(), timeout: .seconds(10)) { $0.count >= 2 }
        #expect(seen.map(\.type) == ["Slow", "Fast"])
        await log.close()
    }
}

/// What a statement cut off by the server says about itself.
@Suite("PostgreSQL cutting a statement off")
struct PostgresCutOffTests {
    @Test("an append whose session the server terminates (57P01) reads as 'PostgreSQL unavailable', not as a fault of the request")
    func terminatedAppend() async throws {
        let log = try await Backend.postgres.makeLog(holdsTransactions: true)
        let store = try #require(log.store as? PostgresEventStore)
        // The append waits on the holder's uncommitted row of the same stream version (held
        // until the test cancels the holder, whose closed connection rolls it back)...
        let holder = await log.holdTransaction(stream: "cut-1", events: [testEvent("First")], hold: .seconds(3_600), commit: false)
        let blocked = Task { try await store.append(to: "cut-1", expected: .any, events: [testEvent("Second")]) }
        // ...until its session is ended, as a restart or fail-over ends it. Only this test's
        // schema: the one the holder's session (whose statement names the schema; the log's
        // prepared ones do not) blocks.
        let waiting: PostgresQuery = """
            SELECT pg_terminate_backend(w.pid) FROM pg_stat_activity w
            JOIN pg_stat_activity h ON h.pid = ANY(pg_blocking_pids(w.pid))
            WHERE w.wait_event_type = 'Lock' AND w.pid <> pg_backend_pid()
              AND h.query LIKE \("%" + store.configuration.schema + ".append_events%")
            """
        let terminated =
            (try? await waitFor("the append to wait for the holder's row") {
                var terminated = false
                for try await ended in try await store.client.query(waiting).decode(Bool.self) { terminated = terminated || ended }
                return terminated
            }) != nil
        holder.cancel()
        _ = await holder.result
        #expect(terminated, "the append was seen waiting")
        let error = await #expect(throws: (any Error).self) { _ = try await blocked.value }
        #expect(error.map(PostgresAvailability.isUnavailable) == true, "\(error.map { String(reflecting: $0) } ?? "none")")
        await log.close()
    }
}
