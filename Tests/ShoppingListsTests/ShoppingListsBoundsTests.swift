import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("shopping lists: declared bounds")
struct ShoppingListsBoundsTests {
    @Test("every body field and query parameter declares a bound")
    func everythingBounded() async throws {
        try await ShoppingListsHarness().test { client in
            let bounds = try await client.bounds()
            #expect(bounds.unbounded.isEmpty)
        }
    }

    @Test("a list name and an item quantity at their declared bounds are accepted; one past gets 422")
    func listAndItem() async throws {
        try await ShoppingListsHarness().test { client in
            let bounds = try await client.bounds()
            let name = try bounds.bound("maxLength", of: "POST /v1/lists", body: "name")
            let quantity = try bounds.bound("maximum", of: "POST /v1/lists/{id}/items", body: "quantity")
            let owner = try await client.account()
            let list = try await client.list(String(repeating: "n", count: name), by: owner)
            let long = try await client.call(.post, "/v1/lists", as: owner, json: ["name": String(repeating: "n", count: name + 1)])
            #expect(long.status == .unprocessableContent && long.fieldErrors.keys.contains("name"), "\(long.text)")
            _ = try await client.add(["text": "Eggs", "quantity": quantity], to: list, by: owner)
            let many = try await client.call(.post, "/v1/lists/\(list.key)/items", as: owner, json: ["text": "Milk", "quantity": quantity + 1])
            #expect(many.status == .unprocessableContent && many.fieldErrors.keys.contains("quantity"), "\(many.text)")
        }
    }

    @Test("a batch of the declared most commands is applied; one more gets 422; a limit past its maximum gets 400")
    func batchAndLimit() async throws {
        try await ShoppingListsHarness().test { client in
            let bounds = try await client.bounds()
            let batch = try bounds.bound("maxItems", of: "POST /v1/lists/{id}/commands", body: "commands")
            let limit = try bounds.bound("maximum", of: "GET /v1/products", query: "limit")
            let owner = try await client.account()
            let list = try await client.list(by: owner)
            // Commands with an empty text, each refused on its own inside a 200: the count is what
            // is checked, and 200 real items cost seconds each on a busy machine (once past the
            // request's 30 s deadline).
            func commands(_ count: Int) -> [String: Any] {
                ["commands": (0..<count).map { ["commandId": "c\($0)", "type": "addItem", "text": ""] }]
            }
            let applied = try await client.call(.post, "/v1/lists/\(list.key)/commands", as: owner, json: commands(batch))
            #expect(applied.status == .ok, "\(applied.text)")
            let refused = try await client.call(.post, "/v1/lists/\(list.key)/commands", as: owner, json: commands(batch + 1))
            #expect(refused.status == .unprocessableContent && refused.fieldErrors.keys.contains("commands"), "\(refused.text)")
            #expect(try await client.call(.get, "/v1/products?limit=\(limit)").status == .ok)
            #expect(try await client.call(.get, "/v1/products?limit=\(limit + 1)").status == .badRequest)
        }
    }

    @Test("an item change states \"give quantityDelta, checked, note or after\" (anyOf); one that gives none gets 422, each one alone is taken")
    func itemChangeNeedsAnEdit() async throws {
        try await ShoppingListsHarness().test { client in
            let body = try #require(try await client.bounds().bodySchema(of: "PATCH /v1/lists/{id}/items/{itemId}"))
            let branches = try #require(body["anyOf"] as? [[String: Any]], "the rule is not in the schema")
            #expect(Set(branches.compactMap { $0["required"] as? [String] }) == [["quantityDelta"], ["checked"], ["note"], ["after"]])
            let owner = try await client.account()
            let list = try await client.list(by: owner)
            let item = try await client.add(["text": "Eggs"], to: list, by: owner)
            let uri = "/v1/lists/\(list.key)/items/\(item.key)"
            for none: [String: Any] in [[:], ["quantityDelta": NSNull(), "checked": NSNull()]] {
                let reply = try await client.call(.patch, uri, as: owner, json: none)
                #expect(reply.status == .unprocessableContent, "\(none): \(reply.text)")
            }
            for one: [String: Any] in [["quantityDelta": 1], ["checked": true], ["note": NSNull()], ["after": NSNull()]] {
                let reply = try await client.call(.patch, uri, as: owner, json: one)
                #expect(reply.status == .ok, "\(one): \(reply.text)")
            }
        }
    }
}

extension ShoppingListsHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await call(.get, "/openapi.json").body)
    }
}
