import CommonsAPI
import Contracts
import EventLog
import Foundation
import Geo
import ShoppingListsDomain
import Testing

@Suite("catalogue: file checks, import decisions, offers, totals, queries")
struct CatalogTests {
    let store = UUID()
    let other = UUID()

    func product(price: Int, otherPrice: Int? = nil, name: String = "Whole milk") -> CatalogFile.Product {
        var offers = [ProductOffer(storeId: store, price: Contracts.Money(amountMinor: price, currency: "EUR"))]
        if let otherPrice { offers.append(ProductOffer(storeId: other, price: Contracts.Money(amountMinor: otherPrice, currency: "EUR"))) }
        return CatalogFile.Product(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, name: name, brand: "Polderhoeve",
            category: "Dairy", unit: "1 l", image: nil, caloriesPerUnit: 640, offers: offers)
    }

    @Test("a new product is listed; the same entry again changes nothing; a new price is a price change that keeps the old one")
    func importDecisions() {
        let entry = product(price: 119, otherPrice: 129)
        let first = CatalogProductState().changes(toMatch: entry)
        #expect(first.count == 1)
        let listed = try! #require(first.first as? ProductListed)
        let state = CatalogProductState.replay([listed])
        #expect(state.changes(toMatch: entry).isEmpty)

        let cheaper = state.changes(toMatch: product(price: 99, otherPrice: 129))
        #expect(cheaper.count == 1)
        let change = cheaper.first as? ProductPriceChanged
        #expect(change?.price == Contracts.Money(amountMinor: 99, currency: "EUR"))
        #expect(change?.previous == Contracts.Money(amountMinor: 119, currency: "EUR"))

        let withdrawnAndRenamed = state.changes(toMatch: product(price: 119, name: "Full-fat milk"))
        #expect(withdrawnAndRenamed.contains { ($0 as? ProductDetailsChanged)?.details.name == "Full-fat milk" })
        #expect(withdrawnAndRenamed.contains { ($0 as? ProductOfferWithdrawn)?.storeId == other })
    }

    @Test("a catalogue file with bad fields lists every one of them")
    func fileProblems() {
        var bad = product(price: 0)
        bad.name = " "
        bad.caloriesPerUnit = -1
        bad.offers.append(ProductOffer(storeId: UUID(), price: Contracts.Money(amountMinor: 100, currency: "euro")))
        let file = CatalogFile(
            stores: [CatalogFile.Store(id: store, retailer: "Buurtmarkt", name: "B", address: "Oudegracht 1", lat: 95, lon: 5)],
            products: [bad])
        let problems = file.problems()
        #expect(
            Set(problems.keys) == [
                "stores[0].lat", "products[0].name", "products[0].caloriesPerUnit", "products[0].offers[0].price",
                "products[0].offers[1].storeId", "products[0].offers[1].price",
            ])
    }

    @Test("the shipped catalogue is valid and large: thousands of products, several retailers and stores")
    func shippedCatalogue() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/catalog.json")
        let file = try JSONDecoder().decode(CatalogFile.self, from: Data(contentsOf: url))
        #expect(file.problems().isEmpty)
        #expect(file.products.count >= 2_000)
        #expect(Set(file.stores.map(\.retailer)).count >= 3)
        #expect(file.stores.count >= 10)
        #expect(file.products.allSatisfy { !$0.offers.isEmpty })
    }

    @Test("offers sort by distance from a point; the cheapest within the radius is marked, a cheaper one far away is not")
    func offerRanking() {
        let here = GeoCoordinate(lat: 52.0907, lon: 5.1214)!
        let near = PlacedOffer(
            storeId: UUID(), price: Contracts.Money(amountMinor: 150, currency: "EUR"), location: GeoCoordinate(lat: 52.0920, lon: 5.1220)!)
        let nearCheap = PlacedOffer(
            storeId: UUID(), price: Contracts.Money(amountMinor: 120, currency: "EUR"), location: GeoCoordinate(lat: 52.1000, lon: 5.1300)!)
        let farCheapest = PlacedOffer(
            storeId: UUID(), price: Contracts.Money(amountMinor: 90, currency: "EUR"), location: GeoCoordinate(lat: 52.3676, lon: 4.9041)!)
        let ranked = OfferRanking.rank([farCheapest, nearCheap, near], from: here)
        #expect(ranked.map(\.offer) == [near, nearCheap, farCheapest])
        #expect(ranked.map(\.isCheapestNearby) == [false, true, false])
        #expect(OfferRanking.rank([farCheapest, near], from: nil).map(\.offer) == [farCheapest, near])
    }

    @Test("totals: calories times quantity, and the cheapest price times quantity per currency")
    func totals() {
        let totals = ListTotals.of([
            ListTotals.Line(quantity: 2, caloriesPerUnit: 640, cheapest: CommonsAPI.Money(amountMinor: 119, currency: "EUR")),
            ListTotals.Line(quantity: 1, caloriesPerUnit: 90, cheapest: CommonsAPI.Money(amountMinor: 189, currency: "EUR")),
            ListTotals.Line(quantity: 3, caloriesPerUnit: nil, cheapest: nil),
        ])
        #expect(totals == ListTotals(calories: 1_370, prices: [CommonsAPI.Money(amountMinor: 427, currency: "EUR")], unpricedItems: 1))
    }

    @Test("product queries: words ignore case, bad fields are all reported, cursors belong to their query")
    func productQueries() throws {
        let query = try ProductQuery(parameters: ["q": "ignored: the service reads it", "limit": "5"], terms: ["Whole", "MILK"])
        #expect(query.words == ["whole", "milk"] && query.limit == 5)
        #expect(
            throws: ProductQueryError.invalid(["limit": ["must be a whole number from 1 to 100"], "category": ["must be at most 100 characters"]])
        ) {
            try ProductQuery(parameters: ["category": String(repeating: "c", count: 101), "limit": "0"], terms: nil)
        }
        let cursor = SearchCursor.encode(.init(rank: -3.5, row: 42), queryKey: try ProductQuery(parameters: [:], terms: ["Whole", "milk"]).key)
        #expect(try ProductQuery(parameters: ["cursor": cursor], terms: ["whole", "milk"]).after == .init(rank: -3.5, row: 42))
        #expect(throws: ProductQueryError.self) { try ProductQuery(parameters: ["cursor": cursor], terms: ["bread"]) }
        #expect(throws: ProductQueryError.self) { try ProductQuery(parameters: ["cursor": "x" + cursor.dropFirst()], terms: ["whole", "milk"]) }
    }

    @Test("reviews: 1 to 5 stars, at most 2,000 characters")
    func reviews() {
        #expect(ReviewRules.problems(rating: 5, text: "Great").isEmpty)
        #expect(Set(ReviewRules.problems(rating: 6, text: String(repeating: "x", count: 2_001)).keys) == ["rating", "text"])
        #expect(ReviewRules.problems(rating: 0, text: "").keys.contains("rating"))
    }
}

@Suite("price history")
struct PriceHistoryTests {
    @Test("first offers, changes and withdrawals in order; one store's alone on request")
    func entries() {
        let (product, north, south) = (UUID(), UUID(), UUID())
        let euros = { (cents: Int) in Contracts.Money(amountMinor: cents, currency: "EUR") }
        let at = { (day: Double) in Date(timeIntervalSince1970: 1_800_000_000 + day * 86_400) }
        let details = ProductDetails(name: "Milk", brand: "Dairy", category: "Dairy", unit: "1 l", image: nil, caloriesPerUnit: 640)
        let events: [(event: any EventContract, at: Date)] = [
            (
                ProductListed(
                    productId: product, details: details,
                    offers: [
                        ProductOffer(storeId: north, price: euros(99)),
                        ProductOffer(storeId: south, price: euros(109)),
                    ]), at(0)
            ),
            (ProductDetailsChanged(productId: product, details: details), at(1)),
            (ProductPriceChanged(productId: product, storeId: north, price: euros(105), previous: euros(99)), at(2)),
            (ProductOfferWithdrawn(productId: product, storeId: south), at(3)),
        ]
        #expect(
            PriceHistory.entries(events) == [
                .init(storeId: north, price: euros(99), since: at(0)), .init(storeId: south, price: euros(109), since: at(0)),
                .init(storeId: north, price: euros(105), since: at(2)), .init(storeId: south, price: nil, since: at(3)),
            ])
        #expect(PriceHistory.entries(events, store: north).map(\.price) == [euros(99), euros(105)])
    }
}
