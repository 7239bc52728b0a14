import Contracts
import EventLogTestSupport
import Foundation
import GRDB
import ServiceTestSupport
import ShoppingListsService
import Testing

/// Search pages are kept under the catalogue's version token (`VersionedAnswerCache`): these
/// tests ask for a page first, so that it is kept, then change what it shows.
@Suite("shopping-lists search pages, kept while the catalogue is unchanged")
struct SearchPageCacheTests {
    private func cheapest(_ reply: ShoppingListsHarness.Reply, _ product: UUID) -> Int? {
        let item = reply.items.first { $0["id"] as? String == product.key }
        return (item?["cheapestPrice"] as? [String: Any])?["amountMinor"] as? Int
    }

    private func item(_ reply: ShoppingListsHarness.Reply, _ product: UUID) -> [String: Any]? {
        reply.items.first { $0["id"] as? String == product.key }
    }

    @Test("a page asked for again is the same; a new price, name, review or a deleted reviewer shows at once", arguments: Backend.allCases)
    func freshAfterWrites(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let milk = try await client.call(.get, "/v1/products?q=milk")
            #expect(try await client.call(.get, "/v1/products?q=milk").body == milk.body)
            #expect(cheapest(milk, TestCatalog.wholeMilk) == 99)

            try await client.importCatalog(TestCatalog.file(milkPrice: 89))
            #expect(cheapest(try await client.call(.get, "/v1/products?q=milk"), TestCatalog.wholeMilk) == 89)

            #expect(item(try await client.call(.get, "/v1/products?q=whole"), TestCatalog.wholeMilk) != nil)
            var renamed = TestCatalog.file(milkPrice: 89)
            let index = try #require(renamed.products.firstIndex { $0.id == TestCatalog.wholeMilk })
            renamed.products[index].name = "Farm milk"
            try await client.importCatalog(renamed)
            #expect(item(try await client.call(.get, "/v1/products?q=milk"), TestCatalog.wholeMilk)?["name"] as? String == "Farm milk")
            #expect(item(try await client.call(.get, "/v1/products?q=whole"), TestCatalog.wholeMilk) == nil)

            let ada = try await client.account()
            let bread = try await client.call(.get, "/v1/products?q=bread")
            #expect(item(bread, TestCatalog.bread)?["reviewCount"] as? Int == 0)
            #expect(try await client.call(.put, "/v1/products/\(TestCatalog.bread.key)/review", as: ada, json: ["rating": 4]).status == .ok)
            let reviewed = try #require(item(try await client.call(.get, "/v1/products?q=bread"), TestCatalog.bread))
            #expect(reviewed["reviewCount"] as? Int == 1 && reviewed["averageRating"] as? Double == 4)

            try await client.delete(ada)
            #expect(item(try await client.call(.get, "/v1/products?q=bread"), TestCatalog.bread)?["reviewCount"] as? Int == 0)
        }
    }

    @Test("a search under an unchanged token is answered from the kept page; Cache-Control: no-cache reads afresh")
    func keptAndFresh() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            #expect(cheapest(try await client.call(.get, "/v1/products?q=milk"), TestCatalog.wholeMilk) == 99)
            // Change a price behind the triggers' back: the token stays, so the kept page stays.
            try await client.runtime.readModel.pool.write { db in
                let token = try ProductQueries.catalogVersion.current(in: db)
                try db.execute(
                    sql: "UPDATE shop_offers SET amount_minor = 50 WHERE product_id = ? AND store_id = ?",
                    arguments: [TestCatalog.wholeMilk.key, TestCatalog.amsterdam.id.key])
                try db.execute(sql: "UPDATE shop_catalog_version SET token = ?", arguments: [token])
            }
            #expect(cheapest(try await client.call(.get, "/v1/products?q=milk"), TestCatalog.wholeMilk) == 99)
            let fresh = try await client.call(.get, "/v1/products?q=milk", headers: [.cacheControl: "max-age=0, No-Cache"])
            #expect(cheapest(fresh, TestCatalog.wholeMilk) == 50)
            // What was read afresh is kept for the next request.
            #expect(cheapest(try await client.call(.get, "/v1/products?q=milk"), TestCatalog.wholeMilk) == 50)
        }
    }

    @Test("the catalogue's version token changes with every write to products, offers and reviews, in the write's transaction, and with no other")
    func token() async throws {
        try await ShoppingListsHarness().test { client in
            try await client.importCatalog(TestCatalog.file())
            // The writes below must find the catalogue's rows, so its import must be applied.
            try await client.caughtUp()
            let pool = client.runtime.readModel.pool
            let product = TestCatalog.bread.key
            let writes = [
                "UPDATE shop_products SET calories = calories + 1 WHERE product_id = '\(product)'",
                "INSERT INTO shop_products (product_id, name, brand, category, unit, calories) VALUES ('p-new', 'Rye', 'Smit', 'Bakery', '1 each', 1)",
                "DELETE FROM shop_products WHERE product_id = 'p-new'",
                "INSERT INTO shop_offers (product_id, store_id, amount_minor, currency) VALUES ('\(product)', 's-new', 100, 'EUR')",
                "UPDATE shop_offers SET amount_minor = 101 WHERE store_id = 's-new'",
                "DELETE FROM shop_offers WHERE store_id = 's-new'",
                "INSERT INTO shop_reviews (product_id, author_id, rating, text_sealed, at) VALUES ('\(product)', 'a-new', 3, '', 0)",
                "UPDATE shop_reviews SET rating = 5 WHERE author_id = 'a-new'",
                "DELETE FROM shop_reviews WHERE author_id = 'a-new'",
            ]
            let failures = try await VersionTokenCheck.failures(
                of: ProductQueries.catalogVersion, in: pool, writes: writes,
                unrelated: [
                    "INSERT INTO shop_favorites (account_id, product_id, position) VALUES ('a-new', '\(product)', 1)",
                    "INSERT INTO shop_accounts (account_id) VALUES ('a-new')",
                ])
            #expect(failures.isEmpty)
        }
    }
}
