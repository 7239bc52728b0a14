import EventLog
import EventLogTestSupport
import Foundation
import Testing

/// What only the PostgreSQL log promises: appends are not serialized.
@Suite("PostgreSQL appends")
struct PostgresConcurrencyTests {
    @Test("an open transaction on one stream does not hold back appends to another")
    func independentStreamsCommitConcurrently() async throws {
        let log = try await Backend.postgres.makeLog()
        let holder = await log.holdTransaction(stream: "slow-1", events: [testEvent("Slow")], hold: .seconds(3))
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await log.store.append(to: "fast-1", expected: .any, events: [testEvent("Fast")])
        #expect(clock.now - start < .seconds(2))
        // The fast event is committed but is held back until the slow one is decided.
        let early = try await log.store.readAll(after: .start, limit: 10, filter: .all)
        #expect(early.events.isEmpty)
        try await holder.value
        let seen = try await collect(log.store.subscribe(), timeout: .seconds(10)) { $0.count >= 2 }
        #expect(seen.map(\.type) == ["Slow", "Fast"])
        await log.close()
    }
}
