import Contracts
import EventLogTestSupport
import Foundation
import HTTPTypes
import ShoppingListsDomain
import ShoppingListsService
import Testing

@Suite("shopping lists over HTTP")
struct ListsHTTPTests {
    @Test("a list: items by product and free text, checked state, totals at the cheapest offer, rename with If-Match", arguments: Backend.allCases)
    func lifecycle(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let ada = try await client.account()
            let created = try await client.call(.post, "/v1/lists", as: ada, json: ["name": "  Saturday market "])
            #expect(created.status == .created)
            let list = try #require((created.json["id"] as? String).flatMap(UUID.init(uuidString:)))
            #expect(created.headers[.location] == "/v1/lists/\(list.key)")
            let milk = try await client.add(["productId": TestCatalog.wholeMilk.key, "quantity": 2, "note": "the blue one"], to: list, by: ada)
            let bread = try await client.add(["productId": TestCatalog.bread.key], to: list, by: ada)
            let flowers = try await client.add(["text": "Tulips", "quantity": 3], to: list, by: ada)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(bread.key)", as: ada, json: ["checked": true]).status == .ok)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(flowers.key)", as: ada, json: ["after": NSNull()]).status == .ok)

            let view = try await client.view(list, as: ada)
            #expect(view["name"] as? String == "Saturday market" && view["role"] as? String == "owner")
            let items = try #require(view["items"] as? [[String: Any]])
            #expect(items.ids == [flowers.key, milk.key, bread.key])
            #expect(items[0]["text"] as? String == "Tulips" && items[0]["quantity"] as? Int == 3)
            #expect(items[1]["note"] as? String == "the blue one")
            #expect(items.map { $0["checked"] as? Bool } == [false, false, true])
            let totals = try #require(view["totals"] as? [String: Any])
            // 2 × 99 (whole milk in Amsterdam) + 219 (bread in Lombok); 2 × 640 + 1900 kcal; the tulips have no price.
            #expect((totals["prices"] as? [[String: Any]])?.first?["amountMinor"] as? Int == 417)
            #expect(totals["calories"] as? Int == 3_180 && totals["unpricedItems"] as? Int == 1)

            let version = try #require(view["version"] as? Int)
            let stale = try await client.call(
                .patch, "/v1/lists/\(list.key)", as: ada, json: ["name": "Sunday"], headers: [.ifMatch: "\"\(version - 1)\""])
            #expect(stale.status == .preconditionFailed)
            let renamed = try await client.call(
                .patch, "/v1/lists/\(list.key)", as: ada, json: ["name": "Sunday"], headers: [.ifMatch: "\"\(version)\""])
            #expect(renamed.status == .ok)
            #expect(try await client.view(list, as: ada)["name"] as? String == "Sunday")
            let mine = try await client.call(.get, "/v1/lists", as: ada)
            #expect(mine.items.ids == [list.key] && mine.items.first?["itemCount"] as? Int == 3)
            #expect(try await client.call(.delete, "/v1/lists/\(list.key)", as: ada).status == .noContent)
            #expect(try await client.call(.get, "/v1/lists/\(list.key)", as: ada).status == .notFound)
            #expect(try await client.call(.get, "/v1/lists", as: ada).items.isEmpty)
        }
    }

    @Test("bad input gets 4xx problem documents listing every bad field")
    func validation() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            let ada = try await client.account()
            let list = try await client.list(by: ada)
            let both = try await client.call(
                .post, "/v1/lists/\(list.key)/items", as: ada,
                json: ["productId": TestCatalog.bread.key, "text": "bread", "quantity": 0, "note": String(repeating: "n", count: 501)])
            #expect(both.status == .unprocessableContent)
            #expect(Set(both.fieldErrors.keys) == ["text", "quantity", "note"])
            #expect(both.headers[.contentType] == "application/problem+json")
            let unknown = try await client.call(.post, "/v1/lists/\(list.key)/items", as: ada, json: ["productId": UUID().key])
            #expect(unknown.status == .unprocessableContent && unknown.fieldErrors["productId"] != nil)
            #expect(try await client.call(.post, "/v1/lists", as: ada, json: ["name": ""]).status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/lists", as: ada, json: ["name": 3]).status == .badRequest)
            #expect(try await client.call(.post, "/v1/lists", as: ada, raw: "{not json").status == .badRequest)
            #expect(try await client.call(.post, "/v1/lists", json: ["name": "x"]).status == .unauthorized)
            let item = try await client.add(["text": "eggs"], to: list, by: ada)
            let nothing = try await client.call(.patch, "/v1/lists/\(list.key)/items/\(item.key)", as: ada, json: [String: Any]())
            #expect(nothing.status == .unprocessableContent)
            let tooMany = try await client.call(.patch, "/v1/lists/\(list.key)/items/\(item.key)", as: ada, json: ["quantityDelta": 999])
            #expect(tooMany.status == .unprocessableContent && tooMany.fieldErrors["delta"] != nil)
        }
    }

    @Test("my lists come in pages, newest first; a creation retried with its Idempotency-Key makes one list")
    func pagesAndRetries() async throws {
        try await ShoppingListsHarness().test { client in
            let ada = try await client.account()
            var made: [String] = []
            for n in 1...3 { made.append(try await client.list("List \(n)", by: ada).key) }
            let first = try await client.call(.get, "/v1/lists?limit=2", as: ada)
            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await client.call(.get, "/v1/lists?limit=2&cursor=\(cursor)", as: ada)
            #expect(first.items.ids + second.items.ids == made.reversed())
            #expect(second.json["nextCursor"] == nil || second.json["nextCursor"] is NSNull)
            #expect(try await client.call(.get, "/v1/lists?cursor=bogus", as: ada).status == .badRequest)

            let key: [HTTPField.Name: String] = [.idempotencyKey: "make-list-1"]
            let one = try await client.call(.post, "/v1/lists", as: ada, json: ["name": "Once"], headers: key)
            let two = try await client.call(.post, "/v1/lists", as: ada, json: ["name": "Once"], headers: key)
            #expect(one.status == .created && two.status == .created)
            #expect(one.json["id"] as? String == two.json["id"] as? String)
            #expect(try await client.call(.get, "/v1/lists?limit=100", as: ada).items.count == 4)
        }
    }

    @Test("sharing: members read and edit; the owner alone renames, deletes and removes; non-members get 404 everywhere", arguments: Backend.allCases)
    func sharing(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            let (ada, grace, mallory) = (try await client.account(), try await client.account(), try await client.account())
            let list = try await client.list("Shared shop", by: ada)
            let item = try await client.add(["text": "Coffee"], to: list, by: ada)
            let private_ = try await client.list("Ada's own", by: ada)

            // Before sharing, and for anyone not invited, the list does not exist.
            for account in [grace, mallory] {
                let base = "/v1/lists/\(list.key)"
                let replies = [
                    try await client.call(.get, base, as: account),
                    try await client.call(.patch, base, as: account, json: ["name": "mine"]),
                    try await client.call(.delete, base, as: account),
                    try await client.call(.post, "\(base)/items", as: account, json: ["text": "x"]),
                    try await client.call(.patch, "\(base)/items/\(item.key)", as: account, json: ["checked": true]),
                    try await client.call(.delete, "\(base)/items/\(item.key)", as: account),
                    try await client.call(.post, "\(base)/members", as: account, json: ["accountId": account.id.key]),
                    try await client.call(.delete, "\(base)/members/\(ada.id.key)", as: account),
                    try await client.call(
                        .post, "\(base)/commands", as: account, json: ["commands": [["commandId": "c1", "type": "check", "itemId": item.key]]]),
                    try await client.call(.get, "\(base)/events?until=1", as: account),
                ]
                #expect(replies.map(\.status) == Array(repeating: .notFound, count: replies.count), "\(replies.map(\.text))")
                #expect(replies.allSatisfy { !$0.text.contains("Shared shop") && !$0.text.contains("Coffee") })
            }
            #expect(
                try await client.call(.get, "/v1/lists/\(UUID().key)", as: mallory).text
                    == (try await client.call(.get, "/v1/lists/\(list.key)", as: mallory).text))

            #expect(try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            #expect(
                try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": UUID().key]).status
                    == .unprocessableContent)
            let seen = try await client.view(list, as: grace)
            #expect(seen["role"] as? String == "member" && (seen["items"] as? [[String: Any]])?.first?["text"] as? String == "Coffee")
            #expect(try await client.call(.get, "/v1/lists", as: grace).items.ids == [list.key]) // not Ada's private list
            #expect(try await client.call(.get, "/v1/lists/\(private_.key)", as: grace).status == .notFound)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(item.key)", as: grace, json: ["quantityDelta": 1]).status == .ok)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)", as: grace, json: ["name": "mine"]).status == .forbidden)
            #expect(try await client.call(.delete, "/v1/lists/\(list.key)", as: grace).status == .forbidden)
            #expect(
                try await client.call(.post, "/v1/lists/\(list.key)/members", as: grace, json: ["accountId": mallory.id.key]).status == .forbidden)
            #expect(try await client.call(.delete, "/v1/lists/\(list.key)/members/\(ada.id.key)", as: ada).status == .conflict)

            #expect(try await client.call(.delete, "/v1/lists/\(list.key)/members/\(grace.id.key)", as: grace).status == .noContent)
            #expect(try await client.call(.get, "/v1/lists/\(list.key)", as: grace).status == .notFound)
            #expect(try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            #expect(try await client.call(.delete, "/v1/lists/\(list.key)/members/\(grace.id.key)", as: ada).status == .noContent)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(item.key)", as: grace, json: ["checked": true]).status == .notFound)
        }
    }

    @Test(
        "concurrent edits by two members merge: every increment counts, checking commutes, edits to a removed item get 409",
        arguments: Backend.allCases)
    func concurrentEdits(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            let (ada, grace) = (try await client.account(), try await client.account())
            let list = try await client.list(by: ada)
            #expect(try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            let apples = try await client.add(["text": "Apples", "quantity": 1], to: list, by: ada)
            let pears = try await client.add(["text": "Pears"], to: list, by: ada)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<20 {
                    let who = n.isMultiple(of: 2) ? ada : grace
                    group.addTask {
                        try await client.call(.patch, "/v1/lists/\(list.key)/items/\(apples.key)", as: who, json: ["quantityDelta": 1]).status
                    }
                    group.addTask {
                        try await client.call(.patch, "/v1/lists/\(list.key)/items/\(pears.key)", as: who, json: ["checked": true]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            let items = try #require(try await client.view(list, as: grace)["items"] as? [[String: Any]])
            #expect(items.first { $0["id"] as? String == apples.key }?["quantity"] as? Int == 21)
            #expect(items.first { $0["id"] as? String == pears.key }?["checked"] as? Bool == true)
            let checks = try await client.events(of: list).filter { $0.type == "ShoppingListItemCheckSet" }
            #expect(checks.count == 1) // setting a value that is already set appends nothing

            #expect(try await client.call(.delete, "/v1/lists/\(list.key)/items/\(pears.key)", as: grace).status == .noContent)
            let late = try await client.call(.patch, "/v1/lists/\(list.key)/items/\(pears.key)", as: ada, json: ["quantityDelta": 1])
            #expect(late.status == .conflict && (late.json["type"] as? String)?.hasSuffix("item-removed") == true)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(pears.key)", as: ada, json: ["checked": false]).status == .conflict)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(UUID().key)", as: ada, json: ["checked": true]).status == .notFound)
        }
    }

    @Test("a batch of offline edits: results by command id; sending it again changes nothing", arguments: Backend.allCases)
    func batches(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let ada = try await client.account()
            let list = try await client.list(by: ada)
            let gone = try await client.add(["text": "Old item"], to: list, by: ada)
            _ = try await client.call(.delete, "/v1/lists/\(list.key)/items/\(gone.key)", as: ada)
            let eggs = UUID()
            let batch: [String: Any] = [
                "commands": [
                    ["commandId": "a1", "type": "addItem", "itemId": eggs.key, "text": "Eggs", "quantity": 6],
                    ["commandId": "a2", "type": "changeQuantity", "itemId": eggs.key, "delta": 6],
                    ["commandId": "a3", "type": "addItem", "productId": TestCatalog.butter.key],
                    ["commandId": "a4", "type": "check", "itemId": eggs.key],
                    ["commandId": "a5", "type": "changeQuantity", "itemId": gone.key, "delta": 1],
                    ["commandId": "a6", "type": "setNote", "itemId": eggs.key, "note": "brown"],
                ]
            ]
            let first = try await client.call(.post, "/v1/lists/\(list.key)/commands", as: ada, json: batch)
            #expect(first.status == .ok, "\(first.text)")
            let results = try #require(first.json["results"] as? [String: [String: Any]])
            #expect(
                ["a1", "a2", "a3", "a4", "a6"].allSatisfy {
                    results[$0]?["status"] as? String == "applied" && results[$0]?["replayed"] as? Bool == false
                })
            #expect(results["a5"]?["status"] as? String == "rejected")
            #expect(((results["a5"]?["problem"] as? [String: Any])?["status"] as? Int) == 409)
            let eventsAfterFirst = try await client.events(of: list).count

            let second = try await client.call(.post, "/v1/lists/\(list.key)/commands", as: ada, json: batch)
            #expect(second.status == .ok)
            let replayed = try #require(second.json["results"] as? [String: [String: Any]])
            #expect(
                ["a1", "a2", "a3", "a4", "a6"].allSatisfy {
                    replayed[$0]?["status"] as? String == "applied" && replayed[$0]?["replayed"] as? Bool == true
                })
            #expect(replayed["a5"]?["status"] as? String == "rejected")
            #expect(try await client.events(of: list).count == eventsAfterFirst)
            let items = try #require(try await client.view(list, as: ada)["items"] as? [[String: Any]])
            let egg = try #require(items.first { $0["id"] as? String == eggs.key })
            #expect(egg["quantity"] as? Int == 12 && egg["checked"] as? Bool == true && egg["note"] as? String == "brown")
            #expect(items.count == 2)

            // Two deliveries of one batch at the same time still apply it once.
            let deliver: @Sendable () async throws -> HTTPResponse.Status = {
                try await client.call(
                    .post, "/v1/lists/\(list.key)/commands", as: ada,
                    json: ["commands": [["commandId": "b1", "type": "changeQuantity", "itemId": eggs.key, "delta": 1]]]
                ).status
            }
            async let one = deliver()
            async let two = deliver()
            #expect(try await [one, two] == [.ok, .ok])
            #expect(
                (try await client.view(list, as: ada)["items"] as? [[String: Any]])?.first { $0["id"] as? String == eggs.key }?["quantity"] as? Int
                    == 13)

            // Command ids are the client's: another member's command with the same id is a
            // different command, applied in its own right.
            let grace = try await client.account()
            #expect(try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            let hers = try await client.call(
                .post, "/v1/lists/\(list.key)/commands", as: grace,
                json: [
                    "commands": [
                        ["commandId": "b1", "type": "changeQuantity", "itemId": eggs.key, "delta": 1],
                        ["commandId": "a3", "type": "addItem", "productId": TestCatalog.butter.key],
                    ]
                ])
            let herResults = try #require(hers.json["results"] as? [String: [String: Any]])
            #expect(
                ["b1", "a3"].allSatisfy { herResults[$0]?["status"] as? String == "applied" && herResults[$0]?["replayed"] as? Bool == false },
                "\(hers.text)")
            let shared = try #require(try await client.view(list, as: ada)["items"] as? [[String: Any]])
            #expect(shared.first { $0["id"] as? String == eggs.key }?["quantity"] as? Int == 14)
            #expect(shared.count == 3)

            let malformed = try await client.call(
                .post, "/v1/lists/\(list.key)/commands", as: ada,
                json: [
                    "commands": [
                        ["commandId": "", "type": "fly"], ["commandId": "x", "type": "check"], ["commandId": "x", "type": "rename"],
                    ]
                ])
            #expect(malformed.status == .unprocessableContent)
            #expect(
                Set(malformed.fieldErrors.keys) == [
                    "commands[0].commandId", "commands[0].type", "commands[1].itemId", "commands[2].commandId", "commands[2].name",
                ])
        }
    }
}
