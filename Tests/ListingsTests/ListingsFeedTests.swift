import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import ServiceKit
import Testing

@Suite("the listings feed and change feed")
struct ListingsFeedTests {
    @Test("filters, keyword search and sorts", arguments: Backend.allCases)
    func filtersAndSorts(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (ada, bob) = (try await client.person(), try await client.person())
            let sofa = try await client.post(["title": "Blue sofa", "description": "Comfy, a little worn"], as: ada).id
            client.clock.advance(by: 60)
            let bike = try await client.post(
                [
                    "title": "Kids' bicycle", "description": "Red, with a blue bell", "category": "Sports",
                    "price": ["amountMinor": 2_500, "currency": "EUR"],
                ], as: bob
            ).id
            client.clock.advance(by: 60)
            let (lamp, last, _) = try await client.post(
                [
                    "title": "Desk lamp", "description": "Bright", "category": "Household",
                    "price": ["amountMinor": 500, "currency": "EUR"],
                ], as: ada)

            #expect(try await client.items("/v1/listings", after: last).ids == [lamp, bike, sofa])
            #expect(try await client.items("/v1/listings?category=Sports", after: nil).ids == [bike])
            #expect(try await client.items("/v1/listings?free=true", after: nil).ids == [sofa])
            #expect(try await client.items("/v1/listings?minPrice=1000", after: nil).ids == [bike])
            #expect(try await client.items("/v1/listings?maxPrice=600&sort=price", after: nil).ids == [sofa, lamp])
            #expect(try await client.items("/v1/listings?sort=price", after: nil).ids == [sofa, lamp, bike])
            #expect(try await client.items("/v1/listings?sort=title", after: nil).ids == [sofa, lamp, bike])
            #expect(try await client.items("/v1/listings?author=me", as: bob, after: nil).ids == [bike])
            #expect((try await client.get("/v1/listings?author=me", after: nil)).status == .unauthorized)
            // "blue" is in the sofa's title (weighted higher) and the bicycle's description.
            #expect(try await client.items("/v1/listings?q=blue", after: nil).ids == [sofa, bike])
            #expect(try await client.items("/v1/listings?q=BLUE&sort=recent", after: nil).ids == [bike, sofa])
            #expect(try await client.items("/v1/listings?q=lamp%20bright", after: nil).ids == [lamp])
            #expect(try await client.items("/v1/listings?q=\"OR", after: nil).isEmpty)

            let bad = try await client.get("/v1/listings?category=Cars&limit=0&sort=size", after: nil)
            #expect(bad.status == .badRequest)
            #expect(Set(bad.errors.keys) == ["category", "limit", "sort"])
            #expect(try await client.items("/v1/listings?status=withdrawn,hidden", after: nil).isEmpty, "only their owner sees them")
        }
    }

    @Test("pages neither repeat nor skip while listings are posted between them", arguments: Backend.allCases)
    func stableCursor(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            var posted: [String] = []
            var position = ""
            for index in 0..<7 {
                client.clock.advance(by: 1)
                let result = try await client.post(
                    ["title": "Thing \(index)", "price": ["amountMinor": 100 * (7 - index), "currency": "EUR"]],
                    as: owner)
                posted.append(result.id)
                position = result.position
            }
            for sort in ["recent", "price", "title"] {
                var seen: [String] = []
                var cursor: String?
                var inserted = 0
                repeat {
                    let uri = "/v1/listings?sort=\(sort)&limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                    let reply = try await client.get(uri, after: position)
                    #expect(reply.status == .ok)
                    seen += (reply.json["items"] as? [[String: Any]] ?? []).ids
                    cursor = reply.json["nextCursor"] as? String
                    // A newer listing (posted meanwhile) belongs before the cursor in recent order.
                    if sort == "recent", inserted < 2 {
                        client.clock.advance(by: 1)
                        position = try await client.post(["title": "Late \(inserted)"], as: owner).position
                        inserted += 1
                    }
                } while cursor != nil
                if sort == "recent" { #expect(seen == posted.reversed()) }
                #expect(Set(seen).count == seen.count)
                #expect(Set(posted).isSubset(of: Set(seen)))
            }
            let stale = try await client.items("/v1/listings?limit=1", after: nil)
            #expect(stale.count == 1)
            let cursor = try #require((try await client.get("/v1/listings?limit=1", after: nil)).json["nextCursor"] as? String)
            #expect((try await client.get("/v1/listings?limit=1&sort=title&cursor=\(cursor)", after: nil)).status == .badRequest)
        }
    }

    @Test("paging through price, title and time in either order shows every listing once, in order", arguments: Backend.allCases)
    func bothDirections(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            // Ties in every key (equal prices, titles equal but for case, two pairs posted in the
            // same second), so that the pages depend on the seq tie-break in both directions.
            let things: [(title: String, price: Int?, later: Bool)] = [
                ("banana crate", 300, true), ("Apple box", 300, false), ("apple box", nil, true), ("Cherry pit", 1_200, true),
                ("date palm", 50, false), ("Elder shrub", 1_200, true), ("fig tree", 300, true),
            ]
            var ids: [String] = []
            var times: [Int] = []
            var position = ""
            var second = 0
            for thing in things {
                if thing.later {
                    client.clock.advance(by: 1)
                    second += 1
                }
                var fields: [String: Any] = ["title": thing.title]
                if let price = thing.price { fields["price"] = ["amountMinor": price, "currency": "EUR"] }
                let posted = try await client.post(fields, as: owner)
                ids.append(posted.id)
                times.append(second)
                position = posted.position
            }
            func ascending(by key: (Int) -> String) -> [String] {
                things.indices.sorted { (key($0), $0) < (key($1), $1) }.map { ids[$0] }
            }
            let usual: [String: [String]] = [
                "price": ascending { String(format: "%06d", things[$0].price ?? 0) },
                "title": ascending { things[$0].title.lowercased() },
                "recent": ascending { String(format: "%06d", times[$0]) }.reversed(),
            ]
            for (sort, natural) in usual {
                let (usualWay, otherWay) = sort == "recent" ? ("desc", "asc") : ("asc", "desc")
                let cases: [(order: String?, expected: [String])] = [(nil, natural), (usualWay, natural), (otherWay, natural.reversed())]
                for (order, expected) in cases {
                    var seen: [String] = []
                    var cursor: String?
                    repeat {
                        let uri = "/v1/listings?sort=\(sort)&limit=2" + (order.map { "&order=\($0)" } ?? "") + (cursor.map { "&cursor=\($0)" } ?? "")
                        let reply = try await client.get(uri, after: position)
                        #expect(reply.status == .ok, "\(uri): \(reply.text)")
                        seen += (reply.json["items"] as? [[String: Any]] ?? []).ids
                        cursor = reply.json["nextCursor"] as? String
                    } while cursor != nil && seen.count <= things.count
                    #expect(seen == expected, "sort=\(sort) order=\(order ?? "-")")
                }
            }
            let upward = try await client.get("/v1/listings?sort=price&limit=2", after: nil)
            let cursor = try #require(upward.json["nextCursor"] as? String)
            #expect((try await client.get("/v1/listings?sort=price&order=desc&limit=2&cursor=\(cursor)", after: nil)).status == .badRequest)
            #expect((try await client.get("/v1/listings?sort=price&order=asc&limit=2&cursor=\(cursor)", after: nil)).status == .ok)
            let bad = try await client.get("/v1/listings?order=sideways", after: nil)
            #expect(bad.status == .badRequest && bad.errors["order"] != nil)
            #expect((try await client.get("/v1/listings?q=box&order=asc", after: nil)).status == .badRequest)
        }
    }

    @Test("the change feed: created, edited, status changed, withdrawn, in order", arguments: Backend.allCases)
    func changeFeed(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            let start = try await client.get("/v1/listings/changes", after: nil)
            let since = try #require(start.json["next"] as? String)
            let (id, _, created) = try await client.post(as: owner)
            let edited = try await client.call(.patch, "/v1/listings/\(id)", as: owner, json: ["title": "Chair"], headers: [.ifMatch: created.etag!])
            let withdrawn = try await client.call(.delete, "/v1/listings/\(id)", as: owner)
            _ = edited
            let page = try await client.get("/v1/listings/changes?since=\(since)", after: withdrawn.position)
            let items = page.json["items"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["kind"] as? String } == ["created", "edited", "withdrawn"])
            #expect(items.allSatisfy { $0["listingId"] as? String == id })
            let next = try #require(page.json["next"] as? String)
            #expect((try await client.items("/v1/listings/changes?since=\(next)", after: nil)).isEmpty)
            #expect((try await client.get("/v1/listings/changes?since=soon", after: nil)).status == .badRequest)
        }
    }

    @Test("issue 21: no q makes the feed a 500; a prepend letter glued to a quote is an ordinary search, 100 KB a 400")
    func hostileSearches() async throws {
        try await ListingsHarness().test { client in
            let last = try await client.post(["title": "Milk jug"], as: try await client.person()).position
            #expect(try await client.get("/v1/listings?q=%E0%B5%8E%22", after: last).status == .ok)
            #expect(
                try await client.get("/v1/listings?q=\(String(repeating: "a", count: 100_000))", after: nil).errors["q"] as? [String] == [
                    "must be at most 200 characters"
                ])
            for q in [
                "%22", "%22%22", "mil%00k", "%E2%80%8F%22mil%E2%80%8E", "%CC%81%22", "%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7%22", "NEAR(%22",
                "a%20OR%20NOT%20%5E:*",
            ] {
                let reply = try await client.get("/v1/listings?q=\(q)", after: nil)
                #expect(reply.status == .ok || (reply.status == .badRequest && reply.errors["q"] != nil), "\(q): \(reply.text)")
            }
        }
    }
}
