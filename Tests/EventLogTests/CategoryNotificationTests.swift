import EventLog
import EventLogPostgres
import EventLogTestSupport
import Testing

@Suite("notifications name their categories")
struct CategoryNotificationTests {
    @Test("an append wakes another process's waiters for its category and for everything, not those for other categories")
    func categoriesCrossProcesses() async throws {
        // Polls an hour apart: only a notification moves the other store's signal.
        let log = try await Backend.postgres.makeLog(pollInterval: .seconds(3_600))
        let other = try #require(try await log.independentStore() as? PostgresEventStore)
        // Its LISTEN connection fires once for everything when it is established.
        for _ in 0..<300 where other.listenerConnections == 0 { try await Task.sleep(for: .milliseconds(100)) }
        try #require(other.listenerConnections == 1)
        let (seenItems, seenAll) = (other.changes.generation(for: ["item"]), other.changes.generation)

        _ = try await log.store.append(to: "noise-1", expected: .any, events: [testEvent("Ignored")])
        #expect(await other.changes.wait(after: seenAll, timeout: .seconds(30)), "a waiter for everything wakes for any category")
        #expect(other.changes.generation(for: ["item"]) == seenItems, "the notification was about noise alone")

        _ = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled")])
        #expect(await other.changes.wait(after: seenItems, timeout: .seconds(30), for: ["item"]))
        await other.shutdown()
        await log.close()
    }
}
