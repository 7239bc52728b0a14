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

    @Test("a store's own notification does not wake its readers a second time; another store's does")
    func ownNotificationsSkipped() async throws {
        let log = try await Backend.postgres.makeLog(pollInterval: .seconds(3_600))
        let store = try #require(log.store as? PostgresEventStore)
        let other = try #require(try await log.independentStore() as? PostgresEventStore)
        for _ in 0..<300 where store.listenerConnections == 0 || other.listenerConnections == 0 { try await Task.sleep(for: .milliseconds(100)) }
        try #require(store.listenerConnections == 1 && other.listenerConnections == 1)
        let (mine, theirs) = (store.changes.generation(for: ["item"]), other.changes.generation(for: ["item"]))

        _ = try await store.append(to: "item-1", expected: .any, events: [testEvent("Titled")])
        #expect(store.changes.generation(for: ["item"]) == mine &+ 1, "the append woke its own store's readers as it committed")
        #expect(await other.changes.wait(after: theirs, timeout: .seconds(30), for: ["item"]), "the notification reached the other store")
        for _ in 0..<300 where store.ownNotificationsSkipped == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(store.ownNotificationsSkipped == 1)
        #expect(store.changes.generation(for: ["item"]) == mine &+ 1, "its own notification did not wake them again")
        #expect(other.ownNotificationsSkipped == 0)

        _ = try await other.append(to: "item-2", expected: .any, events: [testEvent("Titled")])
        #expect(await store.changes.wait(after: mine &+ 1, timeout: .seconds(30), for: ["item"]), "another store's append still wakes it")
        await other.shutdown()
        await log.close()
    }

    @Test("a store that hears only the categories asked about is not woken by appends to others, and hears one from the first time a reader asks")
    func hearsCategoriesAskedAbout() async throws {
        let log = try await Backend.postgres.makeLog(pollInterval: .seconds(3_600))
        let narrow = try #require(try await log.independentStore(hearsEveryCategory: false) as? PostgresEventStore)
        for _ in 0..<300 where narrow.listenerConnections == 0 { try await Task.sleep(for: .milliseconds(100)) }
        try #require(narrow.listenerConnections == 1)
        // A category too long for a readable channel name within PostgreSQL's 63 bytes.
        let long = String(repeating: "long_category_", count: 5)
        let asked = narrow.changes.generation(for: ["item", long])
        // Each channel fires once as its LISTEN takes effect.
        for _ in 0..<300 where narrow.changes.generation(for: ["item", long]) &- asked < 2 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(narrow.changes.generation(for: ["item", long]) &- asked == 2, "both channels listened to")

        let everything = narrow.changes.generation
        let seenItems = narrow.changes.generation(for: ["item"])
        _ = try await log.store.append(to: "noise-1", expected: .any, events: [testEvent("Ignored")])
        _ = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled")])
        #expect(await narrow.changes.wait(after: seenItems, timeout: .seconds(30), for: ["item"]), "an append to a category asked about is heard")
        // Notifications arrive in the order their appends committed: one about the noise
        // would have come before.
        #expect(narrow.changes.generation == everything &+ 1, "an append to a category no reader asked about woke nothing")
        let seenLong = narrow.changes.generation(for: [long])
        _ = try await log.store.append(to: "\(long)-1", expected: .any, events: [testEvent("Titled")])
        #expect(await narrow.changes.wait(after: seenLong, timeout: .seconds(30), for: [long]), "so is one to a category with a hashed channel")
        await narrow.shutdown()
        await log.close()
    }
}
