import EventLog
import EventLogTestSupport
import Foundation
import Testing

@testable import EventLogPostgres

/// The paced `NOTIFY` carried by a single-event append's own statement (issue 17), and sent
/// on its own when no append carries it. Each store here polls an hour apart, so only a
/// notification moves another store's signal.
@Suite("PostgreSQL notifications carried by appends")
struct CarriedNotificationTests {
    /// A writer and a second store on a fresh log, once the second listens.
    private func stores(concurrentAppends: Int = 2) async throws -> (writer: PostgresEventStore, listener: PostgresEventStore) {
        var configuration = try Backend.freshSchema("carry")
        configuration.pollInterval = .seconds(3_600)
        configuration.concurrentAppends = concurrentAppends
        let writer = try await PostgresEventStore(configuration: configuration)
        let listener = try await PostgresEventStore(configuration: configuration)
        for _ in 0..<300 where listener.listenerConnections == 0 { try await Task.sleep(for: .milliseconds(100)) }
        try #require(listener.listenerConnections == 1)
        return (writer, listener)
    }

    @Test(
        "a single-event append after a quiet spell carries its notification, and another store hears it; one that appends nothing hands it on to be sent alone"
    )
    func carriedAndHandedBack() async throws {
        let (writer, listener) = try await stores()
        let seen = listener.changes.generation(for: ["item"])
        _ = try await writer.append(to: "item-1", expected: .noStream, events: [testEvent("Titled")])
        #expect(await listener.changes.wait(after: seen, timeout: .seconds(30), for: ["item"]), "the carried notification reached the other store")
        #expect(writer.notifier.sends == (alone: 0, carried: 1))

        // Past the pacing's spacing, the next append carries again; this one's expectation
        // fails, so nothing commits with it and its categories go in a statement of their own.
        try await Task.sleep(for: AppendNotifier.spacing * 5)
        let seenOffers = listener.changes.generation(for: ["offer"])
        await #expect(throws: EventStoreError.self) {
            _ = try await writer.append(to: "offer-1", expected: .exact(3), events: [testEvent("Offered")])
        }
        #expect(writer.notifier.sends.carried == 2)
        for _ in 0..<500 where writer.notifier.sends.alone == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(writer.notifier.sends.alone == 1, "the handed-back notification was sent on its own")
        #expect(await listener.changes.wait(after: seenOffers, timeout: .seconds(30), for: ["offer"]))
        await listener.shutdown()
        await writer.shutdown()
    }

    @Test("appends that come too close together to carry a notification each, grouped or not, are each heard by another store")
    func everyCategoryHeard() async throws {
        let (writer, listener) = try await stores(concurrentAppends: 1)
        let categories = (0..<20).map { "burst\($0)" }
        let seen = Dictionary(uniqueKeysWithValues: categories.map { ($0, listener.changes.generation(for: [$0])) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for category in categories {
                group.addTask { _ = try await writer.append(to: "\(category)-1", expected: .noStream, events: [testEvent("Burst")]) }
            }
            try await group.waitForAll()
        }
        for category in categories {
            #expect(await listener.changes.wait(after: seen[category]!, timeout: .seconds(30), for: [category]), "\(category) was heard")
        }
        await listener.shutdown()
        await writer.shutdown()
    }
}
