import EventLog
import EventLogTestSupport
import Foundation
import Testing

/// `eventCount(after:limit:)`: how far behind a reader at a checkpoint is, which is what the
/// projection-lag gauge and the admin API report.
@Suite("event log contract: counting what follows a checkpoint")
struct EventCountTests {
    @Test(
        "counts the events of every stream after a checkpoint, up to the limit; a reader caught up past other categories is 0 behind",
        arguments: Backend.allCases)
    func countsWhatFollows(backend: Backend) async throws {
        let log = try await backend.makeLog()
        var lastAlpha = Checkpoint.start
        for n in 1...5 {
            lastAlpha = try await log.store.append(to: "alpha-\(n)", expected: .any, events: [testEvent("Counted")]).checkpoint
        }
        for n in 1...7 {
            _ = try await log.store.append(to: "beta-\(n)", expected: .any, events: [testEvent("Counted")])
        }
        #expect(try await log.store.eventCount(after: .start, limit: 1_000) == 12)
        #expect(try await log.store.eventCount(after: lastAlpha, limit: 1_000) == 7)
        #expect(try await log.store.eventCount(after: lastAlpha, limit: 3) == 3)

        // A reader of alpha only, past the betas: on PostgreSQL its checkpoint names the
        // visibility horizon's transaction and position 0, so the head's position minus its
        // position would be the whole log. Other suites' open transactions on the shared
        // cluster may hold the horizon back for a while.
        var checkpoint = lastAlpha
        var behind = Int.max
        let deadline = ContinuousClock.now + .seconds(30)
        while behind > 0, ContinuousClock.now < deadline {
            let page = try await log.store.readAll(after: checkpoint, limit: 100, filter: EventFilter(categories: ["alpha"]))
            #expect(page.events.isEmpty)
            checkpoint = max(checkpoint, page.checkpoint)
            behind = try await log.store.eventCount(after: checkpoint, limit: 1_000)
            if behind > 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(behind == 0, "caught up past seven betas, at \(checkpoint)")
        await log.close()
    }
}
