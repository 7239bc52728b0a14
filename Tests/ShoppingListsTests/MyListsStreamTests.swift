import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceTestSupport
import Testing

@Suite("shopping lists: my lists' live stream")
struct MyListsStreamTests {
    /// An event's JSON, with ids in lower case.
    static func json(_ event: ReceivedEvent) -> [String: Any] {
        lowercasingIds((try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) ?? [:]) as? [String: Any] ?? [:]
    }

    // The limit catches a stream that never ends, nothing slower (see the alerts stream's test).
    @Test(
        "a list shared with me arrives live, then its renaming and my removal; others' lists never; resumes after Last-Event-ID",
        .timeLimit(.minutes(3)), arguments: Backend.allCases)
    func sharedWithMe(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test(.live) { client in
            let port = try #require(client.client.port)
            let (ada, grace) = (try await client.account(), try await client.account())
            let token = try await client.token(for: grace.id)
            let opened = try await EventStreamReader.open(port: port, path: "/v1/lists/events", token: token)
            let ready = try await opened.next(events: 1)
            #expect(ready.map(\.name) == ["ready"] && Self.json(ready[0])["position"] as? String == ready[0].id)

            let party = try await client.list("Party", by: ada)
            let picnic = try await client.list("Picnic", by: ada)
            #expect(try await client.call(.post, "/v1/lists/\(picnic.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            #expect(try await client.call(.patch, "/v1/lists/\(picnic.key)", as: ada, json: ["name": "Garden picnic"]).status == .ok)
            #expect(try await client.call(.delete, "/v1/lists/\(picnic.key)/members/\(grace.id.key)", as: ada).status == .noContent)
            #expect(try await client.call(.delete, "/v1/lists/\(picnic.key)", as: ada).status == .noContent)
            let mine = try await client.list("Mine", by: grace)
            let live = try await opened.next(events: 4)
            try await opened.close()
            #expect(live.allSatisfy { $0.name == "list" })
            let changes = live.map(Self.json)
            #expect(
                changes.map { $0["type"] as? String } == [
                    "ShoppingListMemberAdded", "ShoppingListRenamed", "ShoppingListMemberRemoved", "ShoppingListCreated",
                ])
            #expect(changes.map { $0["listId"] as? String } == [picnic.key, picnic.key, picnic.key, mine.key])
            #expect(changes[0]["accountId"] as? String == grace.id.key && changes[1]["name"] as? String == "Garden picnic")
            #expect(changes[3]["name"] as? String == "Mine" && changes[3]["version"] as? Int == 1)
            #expect(live.map(\.id) == changes.map { $0["position"] as? String })

            // Shared while she was away: she gets it on resuming, and nothing she had.
            #expect(try await client.call(.post, "/v1/lists/\(party.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            let resumed = try await EventStreamReader.open(port: port, path: "/v1/lists/events", token: token, lastEventID: live[2].id)
            let missed = try await resumed.next(events: 2).map(Self.json)
            try await resumed.close()
            #expect(missed.map { $0["listId"] as? String } == [mine.key, party.key])
            #expect(missed.map { $0["type"] as? String } == ["ShoppingListCreated", "ShoppingListMemberAdded"])

            let bad = try await EventStreamReader.status(port: port, path: "/v1/lists/events", token: token, lastEventID: "soon")
            #expect(bad == 400)
            let stranger = try await EventStreamReader.status(port: port, path: "/v1/lists/events", token: "nope", lastEventID: nil)
            #expect(stranger == 401)
        }
    }
}
