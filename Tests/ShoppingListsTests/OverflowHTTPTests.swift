import EventLogTestSupport
import Foundation
import HTTPTypes
import Testing

/// Issue 21: one request with an extreme number once killed the service with an overflow trap.
@Suite("extreme numbers over HTTP")
struct OverflowHTTPTests {
    @Test("Int.max and Int.min deltas, by PATCH and by batch, are 422 problems; the list is still readable", arguments: [Int.max, Int.min])
    func extremeDeltas(delta: Int) async throws {
        try await ShoppingListsHarness().test { client in
            let ada = try await client.account()
            let list = try await client.list(by: ada)
            let tea = try await client.add(["text": "Tea", "quantity": 2], to: list, by: ada)

            let patched = try await client.call(.patch, "/v1/lists/\(list.key)/items/\(tea.key)", as: ada, json: ["quantityDelta": delta])
            #expect(patched.status == .unprocessableContent && patched.headers[.contentType] == "application/problem+json")
            #expect(patched.fieldErrors["quantityDelta"] == ["must be from -1000000 to 1000000"], "\(patched.text)")

            let batch = try await client.call(
                .post, "/v1/lists/\(list.key)/commands", as: ada,
                json: [
                    "commands": [
                        ["commandId": "c1", "type": "changeQuantity", "itemId": tea.key, "delta": delta]
                    ]
                ])
            #expect(batch.status == .unprocessableContent && batch.headers[.contentType] == "application/problem+json")
            #expect(batch.fieldErrors["commands[0].delta"] == ["must be from -1000000 to 1000000"], "\(batch.text)")

            let items = try #require(try await client.view(list, as: ada)["items"] as? [[String: Any]])
            #expect(items.first?["quantity"] as? Int == 2)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(tea.key)", as: ada, json: ["quantityDelta": 1]).status == .ok)
        }
    }

    @Test("a Last-Event-ID of Int64.max is a 400, not a trap when the stream reads on from it")
    func extremeLastEventID() async throws {
        try await ShoppingListsHarness().test { client in
            let ada = try await client.account()
            let list = try await client.list(by: ada)
            let reply = try await client.call(
                .get, "/v1/lists/\(list.key)/events", as: ada, headers: [HTTPField.Name("Last-Event-ID")!: String(Int64.max)])
            #expect(reply.status == .badRequest && reply.fieldErrors["Last-Event-ID"] != nil, "\(reply.text)")
            #expect(try await client.view(list, as: ada)["version"] as? Int == 1)
        }
    }
}
