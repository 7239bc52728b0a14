import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import ShoppingListsDomain
import ShoppingListsService
import Testing

@Suite("shopping-lists catalogue over HTTP")
struct CatalogHTTPTests {
    @Test("import through the command path: a second import appends nothing, a changed price appends a price change", arguments: Backend.allCases)
    func importing(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            let file = TestCatalog.file()
            let first = try await client.importCatalog(file)
            #expect(first.productsListed == 30 && first.storesListed == 3)
            let again = try await client.importCatalog(TestCatalog.file())
            #expect(again.events == 0 && again.productsUnchanged == 30 && again.storesUnchanged == 3)
            for product in file.products {
                #expect(try await client.store.read(stream: "product-\(product.id.key)").count == 1)
            }
            #expect(try await client.store.read(stream: "store-\(TestCatalog.centre.id.key)").count == 1)

            let changed = try await client.importCatalog(TestCatalog.file(milkPrice: 105))
            #expect(changed.events == 1 && changed.priceChanges == 1)
            let stream = try await client.store.read(stream: "product-\(TestCatalog.wholeMilk.key)")
            #expect(stream.map(\.type) == ["ProductListed", "ProductPriceChanged"])
            let milk = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)")
            let centre = (milk.json["offers"] as? [[String: Any]])?.first { $0["storeId"] as? String == TestCatalog.centre.id.key }
            #expect((centre?["price"] as? [String: Any])?["amountMinor"] as? Int == 105)

            // The old price is kept: the history of the centre's price, oldest first.
            let history = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)/prices?storeId=\(TestCatalog.centre.id.key)")
            #expect(history.status == .ok, "\(history.text)")
            let amounts = history.items.map { ($0["price"] as? [String: Any])?["amountMinor"] as? Int }
            #expect(amounts.count == 2 && amounts.last == 105 && amounts.first != 105)
            #expect(try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)/prices?storeId=nope").status == .badRequest)
            #expect(try await client.call(.get, "/v1/products/\(UUID().key)/prices").status == .notFound)
        }
    }

    @Test(
        "price history: pages of limit follow their cursors; one store's page ends after 2,000 events read; bad fields are all listed",
        arguments: Backend.allCases)
    func priceHistoryPages(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let milk = TestCatalog.wholeMilk.key
            // After the first offers (one event, three entries): 2,100 changes at Lombok, then one in the centre.
            var changes = try (1...2_100).map { n in
                try EventCatalog.encode(
                    ProductPriceChanged(
                        productId: TestCatalog.wholeMilk, storeId: TestCatalog.lombok.id,
                        price: TestCatalog.euros(100 + n % 50), previous: nil))
            }
            changes.append(
                try EventCatalog.encode(
                    ProductPriceChanged(
                        productId: TestCatalog.wholeMilk, storeId: TestCatalog.centre.id,
                        price: TestCatalog.euros(105), previous: TestCatalog.euros(119))))
            _ = try await client.store.append(to: "product-\(milk)", expected: .exact(1), events: changes)

            let all = try await client.pages("/v1/products/\(milk)/prices?limit=100")
            #expect(all.map(\.count) == Array(repeating: 100, count: 21) + [4])
            let entries = all.flatMap { $0 }
            #expect(
                Set(entries.prefix(3).compactMap { $0["storeId"] as? String })
                    == Set([TestCatalog.centre, TestCatalog.lombok, TestCatalog.amsterdam].map(\.id.key)))
            #expect(entries.dropFirst(3).dropLast().allSatisfy { $0["storeId"] as? String == TestCatalog.lombok.id.key })
            #expect((entries.last?["price"] as? [String: Any])?["amountMinor"] as? Int == 105)

            // The centre's two prices are 2,101 events apart: the first page stops reading at 2,000.
            let centre = try await client.pages("/v1/products/\(milk)/prices?storeId=\(TestCatalog.centre.id.key)")
            #expect(centre.map { $0.map { ($0["price"] as? [String: Any])?["amountMinor"] as? Int } } == [[119], [105]])

            let first = try await client.call(.get, "/v1/products/\(milk)/prices?limit=3")
            let cursor = try #require(first.json["nextCursor"] as? String)
            let bad = try await client.call(.get, "/v1/products/\(milk)/prices?limit=0&storeId=\(TestCatalog.lombok.id.key)&cursor=\(cursor)")
            #expect(bad.status == .badRequest)
            #expect(Set(bad.fieldErrors.keys) == ["limit", "cursor"])
            #expect(try await client.call(.get, "/v1/products/\(milk)/prices?limit=101").status == .badRequest)
            #expect(try await client.call(.get, "/v1/products/\(milk)/prices?cursor=nope").status == .badRequest)
            #expect(try await client.call(.get, "/v1/products/\(TestCatalog.bread.key)/prices?cursor=\(cursor)").status == .badRequest)
        }
    }

    @Test(
        "search: prefixes match, names rank first, category filters, cursors page without repeats, bad fields are all listed",
        arguments: Backend.allCases)
    func search(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let milk = try await client.call(.get, "/v1/products?q=mil")
            #expect(milk.status == .ok)
            #expect(Set(milk.items.ids) == [TestCatalog.wholeMilk.key, TestCatalog.skimmedMilk.key, TestCatalog.chocolate.key])
            #expect(try await client.call(.get, "/v1/products?q=whole%20mil").items.ids == [TestCatalog.wholeMilk.key])
            #expect(try await client.call(.get, "/v1/products?q=polderhoeve").items.count == 2) // brands are searched too
            let dairy = try await client.call(.get, "/v1/products?q=milk&category=dairy")
            #expect(Set(dairy.items.ids) == [TestCatalog.wholeMilk.key, TestCatalog.skimmedMilk.key])
            #expect(try await client.call(.get, "/v1/products?q=%22NEAR(%20*").items.isEmpty) // FTS syntax is just words
            let first = try #require(milk.items.first)
            #expect((first["cheapestPrice"] as? [String: Any])?["currency"] as? String == "EUR")

            var seen: [String] = []
            var cursor: String? = nil
            repeat {
                let page = try await client.call(.get, "/v1/products?q=apple&limit=7" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(page.status == .ok, "\(page.text)")
                seen += page.items.ids
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil
            #expect(seen.count == 25 && Set(seen).count == 25)
            let byName = try await client.call(.get, "/v1/products?limit=100")
            #expect(byName.items.compactMap { $0["name"] as? String } == byName.items.compactMap { $0["name"] as? String }.sorted())

            let bad = try await client.call(.get, "/v1/products?q=apple&limit=0&cursor=nonsense")
            #expect(bad.status == .badRequest)
            #expect(Set(bad.fieldErrors.keys) == ["limit"])
            let foreign = try await client.call(.get, "/v1/products?q=milk&limit=1")
            let stolen = try #require(foreign.json["nextCursor"] as? String)
            let misuse = try await client.call(.get, "/v1/products?q=bread&cursor=\(stolen)")
            #expect(misuse.status == .badRequest && misuse.fieldErrors["cursor"] != nil)
        }
    }

    @Test("a product with offers: cheapest first; from a point, nearest first with the cheapest nearby marked")
    func offers() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            let plain = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)")
            let offers = try #require(plain.json["offers"] as? [[String: Any]])
            #expect(offers.compactMap { ($0["price"] as? [String: Any])?["amountMinor"] as? Int } == [99, 119, 125])
            #expect(plain.json["caloriesPerUnit"] as? Int == 640 && plain.json["brand"] as? String == "Polderhoeve")

            let near = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)?lat=52.0910&lon=5.1200")
            let ranked = try #require(near.json["offers"] as? [[String: Any]])
            #expect(
                ranked.compactMap { $0["storeId"] as? String } == [
                    TestCatalog.centre.id.key, TestCatalog.lombok.id.key, TestCatalog.amsterdam.id.key,
                ])
            // Amsterdam is cheapest but 35 km away: the cheapest nearby is the centre.
            #expect(ranked.compactMap { $0["cheapestNearby"] as? Bool } == [true, false, false])
            #expect((ranked.first?["distanceMeters"] as? Double).map { $0 < 200 } == true)
            let wide = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)?lat=52.0910&lon=5.1200&radius=50")
            #expect((wide.json["offers"] as? [[String: Any]])?.compactMap { $0["cheapestNearby"] as? Bool } == [false, false, true])

            let bad = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)?lat=95&lon=abc&radius=-1")
            #expect(bad.status == .badRequest && Set(bad.fieldErrors.keys) == ["lat", "lon", "radius"])
            #expect(try await client.call(.get, "/v1/products/\(UUID().key)").status == .notFound)
            #expect(try await client.call(.get, "/v1/products/not-a-uuid").status == .notFound)
        }
    }

    @Test("reviews: one per person, editable, averaged on the product; favourites are per person", arguments: Backend.allCases)
    func reviewsAndFavorites(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let (ada, grace) = (try await client.account(), try await client.account())
            let path = "/v1/products/\(TestCatalog.bread.key)"
            #expect(try await client.call(.put, "\(path)/review", as: ada, json: ["rating": 2, "text": "Dry"]).status == .ok)
            #expect(try await client.call(.put, "\(path)/review", as: ada, json: ["rating": 4, "text": "Better today"]).status == .ok)
            #expect(try await client.call(.put, "\(path)/review", as: grace, json: ["rating": 5]).status == .ok)
            let bad = try await client.call(.put, "\(path)/review", as: grace, json: ["rating": 9, "text": String(repeating: "x", count: 2_001)])
            #expect(bad.status == .unprocessableContent && Set(bad.fieldErrors.keys) == ["rating", "text"])
            #expect(try await client.call(.put, "\(path)/review", json: ["rating": 5]).status == .unauthorized)
            #expect(try await client.call(.put, "/v1/products/\(UUID().key)/review", as: ada, json: ["rating": 5]).status == .notFound)

            let product = try await client.call(.get, path)
            #expect(product.json["averageRating"] as? Double == 4.5 && product.json["reviewCount"] as? Int == 2)
            let reviews = try await client.call(.get, "\(path)/reviews").items
            #expect(reviews.count == 2)
            #expect(reviews.contains { $0["authorId"] as? String == ada.id.key && $0["text"] as? String == "Better today" })

            #expect(try await client.call(.put, "\(path)/favorite", as: ada).status == .noContent)
            #expect(try await client.call(.put, "/v1/products/\(TestCatalog.butter.key)/favorite", as: ada).status == .noContent)
            #expect(try await client.call(.get, "/v1/me/favorites", as: ada).items.ids == [TestCatalog.butter.key, TestCatalog.bread.key])
            #expect(try await client.call(.get, "/v1/me/favorites", as: grace).items.isEmpty)
            #expect(try await client.call(.get, path, as: ada).json["favorite"] as? Bool == true)
            #expect(try await client.call(.delete, "\(path)/favorite", as: ada).status == .noContent)
            #expect(try await client.call(.get, "/v1/me/favorites", as: ada).items.ids == [TestCatalog.butter.key])
            #expect(try await client.call(.get, "/v1/me/favorites").status == .unauthorized)
        }
    }

    @Test(
        "reviews and favourites in pages: newest first, each once, cursors of their own list only; a deleted author's review is left out",
        arguments: Backend.allCases)
    func reviewsAndFavoritesInPages(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let path = "/v1/products/\(TestCatalog.bread.key)"
            var authors: [ShoppingListsHarness.Account] = []
            var written: [(author: String, at: String)] = []
            for rating in 1...5 {
                let author = try await client.account()
                let review = try await client.call(.put, "\(path)/review", as: author, json: ["rating": rating, "text": "Rated \(rating)"])
                #expect(review.status == .ok)
                authors.append(author)
                written.append((author.id.key, review.json["at"] as? String ?? ""))
            }
            // Newest first, then by author: a review's time is kept in whole seconds, so most of these share one.
            let newestFirst = written.sorted { $0.at != $1.at ? $0.at > $1.at : $0.author < $1.author }.map(\.author)
            let reviews = try await client.pages("\(path)/reviews?limit=2")
            #expect(reviews.map(\.count) == [2, 2, 1])
            #expect(reviews.flatMap { $0 }.compactMap { $0["authorId"] as? String } == newestFirst)

            let first = try await client.call(.get, "\(path)/reviews?limit=2")
            let cursor = try #require(first.json["nextCursor"] as? String)
            let misused = try await client.call(.get, "/v1/products/\(TestCatalog.butter.key)/reviews?limit=0&cursor=\(cursor)")
            #expect(misused.status == .badRequest && Set(misused.fieldErrors.keys) == ["limit", "cursor"])

            // A deleted author's review is left out of its page; the next page still follows.
            try await client.delete(authors[3])
            let after = try await client.pages("\(path)/reviews?limit=2")
            #expect(after.flatMap { $0 }.compactMap { $0["authorId"] as? String } == newestFirst.filter { $0 != authors[3].id.key })

            let fan = authors[0]
            let marked = [TestCatalog.bread, TestCatalog.butter, TestCatalog.chocolate, TestCatalog.wholeMilk, TestCatalog.skimmedMilk]
            for product in marked {
                #expect(try await client.call(.put, "/v1/products/\(product.key)/favorite", as: fan).status == .noContent)
            }
            let favorites = try await client.pages("/v1/me/favorites?limit=2", as: fan)
            #expect(favorites.map(\.count) == [2, 2, 1])
            #expect(favorites.flatMap { $0 }.ids == marked.reversed().map(\.key))
            let theirs = try await client.call(.get, "/v1/me/favorites?limit=2", as: fan)
            let fanCursor = try #require(theirs.json["nextCursor"] as? String)
            #expect(try await client.call(.get, "/v1/me/favorites?cursor=\(fanCursor)", as: authors[1]).status == .badRequest)
            #expect(try await client.call(.get, "/v1/me/favorites", as: fan).items.count == 5)
        }
    }

    @Test("a product's summary finds its cheapest offer and its rating in indexes that hold them, never in the tables")
    func summaryPlan() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            let plan = try await client.runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN SELECT \(ProductQueries.summaryColumns) FROM shop_products p WHERE p.product_id = ?",
                    arguments: [TestCatalog.bread.key]
                ).map { $0["detail"] as String }
            }
            let lookups = plan.filter { $0.hasPrefix("SEARCH o ") || $0.hasPrefix("SEARCH r ") }
            #expect(lookups.count == 4, "\(plan)")
            #expect(
                lookups.allSatisfy {
                    $0.contains("USING COVERING INDEX shop_offers_by_price") || $0.contains("USING COVERING INDEX shop_reviews_by_rating")
                }, "\(plan)")
            // The cheapest offer's currency comes from the index's order, not from a sort.
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test("related products: those most often on the same lists, never the product itself", arguments: Backend.allCases)
    func related(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let ada = try await client.account()
            for (index, others) in [[TestCatalog.bread, TestCatalog.butter], [TestCatalog.bread], [TestCatalog.chocolate]].enumerated() {
                let list = try await client.list("List \(index)", by: ada)
                for product in [TestCatalog.wholeMilk] + others { _ = try await client.add(["productId": product.key], to: list, by: ada) }
                // The same product twice on one list counts once.
                if index == 1 { _ = try await client.add(["productId": TestCatalog.wholeMilk.key, "quantity": 2], to: list, by: ada) }
            }
            let related = try await client.call(.get, "/v1/products/\(TestCatalog.wholeMilk.key)/related").items
            #expect(related.ids == [TestCatalog.bread.key, TestCatalog.butter.key, TestCatalog.chocolate.key])
            #expect(related.compactMap { $0["sharedLists"] as? Int } == [2, 1, 1])
            #expect(try await client.call(.get, "/v1/products/\(TestCatalog.skimmedMilk.key)/related").items.isEmpty)
            #expect(try await client.call(.get, "/v1/products/\(UUID().key)/related").status == .notFound)
        }
    }

    @Test("issue 21: no q makes the search a 500; a prepend letter glued to a quote is an ordinary search, 100 KB a 400")
    func hostileSearches() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            #expect(try await client.call(.get, "/v1/products?q=%E0%B5%8E%22").status == .ok)
            #expect(
                try await client.call(.get, "/v1/products?q=\(String(repeating: "a", count: 100_000))").fieldErrors["q"] == [
                    "must be at most 200 characters"
                ])
            for q in [
                "%22", "%22%22", "mil%00k", "%E2%80%8F%22mil%E2%80%8E", "%CC%81%22", "%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7%22", "NEAR(%22",
                "a%20OR%20NOT%20%5E:*",
            ] {
                let reply = try await client.call(.get, "/v1/products?q=\(q)")
                #expect(reply.status == .ok || (reply.status == .badRequest && reply.fieldErrors["q"] != nil), "\(q): \(reply.text)")
            }
        }
    }
}
