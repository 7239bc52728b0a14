import Contracts
import EventLog
import Foundation
import ShoppingListsDomain
import Testing

@Suite("price history pages")
struct PriceHistoryPageTests {
    let product = UUID()
    let north = UUID()
    let south = UUID()
    let east = UUID()
    static func euros(_ cents: Int) -> Money { Money(amountMinor: cents, currency: "EUR") }
    static func at(_ day: Int) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + Double(day) * 86_400) }

    /// A product's stream: first offers at three stores (three entries in one event), a
    /// details change (none), then price changes and a withdrawal, version 1 first.
    var stream: [(event: any EventContract, at: Date)] {
        let details = ProductDetails(name: "Milk", brand: "Dairy", category: "Dairy", unit: "1 l", image: nil, caloriesPerUnit: 640)
        var events: [(event: any EventContract, at: Date)] = [
            (
                ProductListed(
                    productId: product, details: details,
                    offers: [
                        ProductOffer(storeId: north, price: Self.euros(99)),
                        ProductOffer(storeId: south, price: Self.euros(109)),
                        ProductOffer(storeId: east, price: Self.euros(95)),
                    ]), Self.at(0)
            ),
            (ProductDetailsChanged(productId: product, details: details), Self.at(1)),
        ]
        for day in 2..<9 {
            let store = [north, south, east][day % 3]
            events.append(
                (ProductPriceChanged(productId: product, storeId: store, price: Self.euros(100 + day), previous: Self.euros(99)), Self.at(day)))
        }
        events.append((ProductOfferWithdrawn(productId: product, storeId: south), Self.at(9)))
        return events
    }

    /// Reads pages of `limit` as the service does, each from the cursor's position, at most
    /// `reading` events a page; answers the pages' entries.
    func pages(limit: Int, store: UUID? = nil, reading: Int = .max) throws -> [[PriceHistory.Entry]] {
        let events = stream
        var pages: [[PriceHistory.Entry]] = []
        var start = PriceHistoryPage.Position.start
        while pages.count <= events.count * 3 {
            var page = PriceHistoryPage(from: start, limit: limit, store: store)
            var read = 0
            while page.nextVersion <= Int64(events.count) {
                let (event, at) = events[Int(page.nextVersion) - 1]
                guard page.add(event, at: at, version: page.nextVersion) else { break }
                read += 1
                if read == reading, page.nextVersion <= Int64(events.count) {
                    page.stopReading()
                    break
                }
            }
            #expect(page.entries.count <= limit)
            pages.append(page.entries)
            guard let next = page.next else { return pages }
            // What a client sends back is the cursor, not the position.
            start = try #require(
                PriceHistoryPage.position(of: PriceHistoryPage.cursor(next, product: product, store: store), product: product, store: store))
        }
        Issue.record("the pages never ended")
        return pages
    }

    @Test(
        "pages of any size, one store's or all, end to end hold the whole history once, in order; a page ends inside an event when full",
        arguments: [1, 2, 3, 4, 5, 100])
    func pagesHoldTheWholeHistory(limit: Int) throws {
        let whole = PriceHistory.entries(stream)
        #expect(whole.count == 11)
        let pages = try pages(limit: limit)
        #expect(pages.flatMap { $0 } == whole)
        #expect(pages.dropLast().allSatisfy { $0.count == limit })
        #expect(pages.count == (whole.count + limit - 1) / limit)
        for store in [north, south, east] {
            #expect(try self.pages(limit: limit, store: store).flatMap { $0 } == PriceHistory.entries(stream, store: store))
        }
    }

    @Test("a page whose reading stopped early ends there, and the next page goes on from the first event not read")
    func readingStopsEarly() throws {
        let pages = try pages(limit: 100, store: south, reading: 4)
        #expect(pages.flatMap { $0 } == PriceHistory.entries(stream, store: south))
        #expect(pages.count == 3) // 10 events, 4 a page
        #expect(pages[0].map(\.price) == [Self.euros(109)]) // events 1-4: the first offers, then no change at this store
    }

    @Test("a cursor is refused for another product or store, and when altered")
    func cursorsBelongToTheirHistory() {
        let position = PriceHistoryPage.Position(version: 7, skip: 2)
        let cursor = PriceHistoryPage.cursor(position, product: product, store: north)
        #expect(PriceHistoryPage.position(of: cursor, product: product, store: north) == position)
        #expect(PriceHistoryPage.position(of: cursor, product: product, store: south) == nil)
        #expect(PriceHistoryPage.position(of: cursor, product: product, store: nil) == nil)
        #expect(PriceHistoryPage.position(of: cursor, product: UUID(), store: north) == nil)
        let altered = String(cursor.dropLast()) + (cursor.last == "A" ? "B" : "A")
        #expect(PriceHistoryPage.position(of: altered, product: product, store: north) == nil)
        let unstarted = PriceHistoryPage.cursor(.init(version: 0, skip: 0), product: product, store: nil)
        #expect(PriceHistoryPage.position(of: unstarted, product: product, store: nil) == nil)
    }
}
