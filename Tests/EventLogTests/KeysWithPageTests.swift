import EventLog
import EventLogPostgres
import EventLogTestSupport
import Foundation
import Testing

/// A read of the log can bring along the stored keys that its events' sealed values name,
/// in the same statement, where the keys live beside the log.
@Suite("keys with a page")
struct KeysWithPageTests {
    private func body(_ pairs: [(String, String)]) -> Data {
        Data(("{" + pairs.map { #""\#($0.0)": {"box": "AA", "keyId": \#($0.1)}"# }.joined(separator: ", ") + "}").utf8)
    }

    @Test("PostgreSQL: the keys of events of the asked types, a destroyed one as none, nothing for other types or for what is not a UUID")
    func postgres() async throws {
        let log = try await Backend.postgres.makeLog()
        let store = try #require(log.store as? PostgresEventStore)
        let storage = PostgresKeyStorage(store: store)
        let (owner, other, erased, keyless) = (UUID(), UUID(), UUID(), UUID())
        _ = try await storage.storeIfAbsent(Data([1, 2, 3]), for: owner)
        _ = try await storage.storeIfAbsent(Data([4, 5]), for: other)
        _ = try await storage.storeIfAbsent(Data([6]), for: erased)
        try await storage.destroy(erased, wrappedBy: nil)
        let category = "sealing\(UUID().uuidString.prefix(8).lowercased())"
        let events = [
            NewEvent(
                type: "Sealed",
                data: body([("text", "\"\(owner)\""), ("place", "\"\(erased.uuidString.lowercased())\""), ("note", "\"\(keyless)\"")])),
            NewEvent(type: "Sealed", data: body([("text", "12"), ("note", "\"not-a-uuid\"")])),
            // Members of every other shape: nothing to find, and nothing to fail on.
            NewEvent(
                type: "Sealed", data: Data(#"{"title": "Chair", "n": 3, "z": null, "list": [1, {"keyId": 7}], "deep": {"box": {"keyId": 2}}}"#.utf8)),
            NewEvent(type: "Other", data: body([("text", "\"\(other)\"")])),
        ]
        let appended = try await log.store.append(to: "\(category)-1", expected: .noStream, events: events)
        _ = try await settledEvents(of: log.store, filter: EventFilter(categories: [category]))

        let page = try await log.store.readAll(after: .start, limit: 100, filter: EventFilter(categories: [category]), keysNamedBy: ["Sealed"])
        #expect(page.events.count == 4)
        #expect(page.checkpoint >= appended.checkpoint)
        let keys = try #require(page.storedKeys)
        #expect(keys.count == 2, "\(keys)")
        #expect(keys[owner] == .some(Data([1, 2, 3])))
        #expect(keys[erased] == .some(nil), "destroyed: known to have no key")
        #expect(keys[other] == nil, "an Other event's key was not asked for")

        let plain = try await log.store.readAll(after: .start, limit: 100, filter: EventFilter(categories: [category]))
        #expect(plain.storedKeys == nil)
        #expect(plain.events.map(\.id) == page.events.map(\.id))
        await log.close()
    }

    @Test("SQLite keeps its keys in a file of their own: the page comes without them")
    func sqlite() async throws {
        let log = try await Backend.sqlite.makeLog()
        _ = try await log.store.append(
            to: "sealing-1", expected: .noStream, events: [NewEvent(type: "Sealed", data: body([("text", "\"\(UUID())\"")]))])
        let page = try await log.store.readAll(after: .start, limit: 100, filter: EventFilter(categories: ["sealing"]), keysNamedBy: ["Sealed"])
        #expect(page.events.count == 1)
        #expect(page.storedKeys == nil)
        await log.close()
    }
}
