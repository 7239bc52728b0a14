import CommonsAPI
import Contracts
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import ShoppingListsService

/// A product summary writes its own JSON (issue 17); the bytes must be those its `Encodable`
/// conformance gives under the services' `JSONEncoder`, with and without each optional.
@Suite("a product summary's JSON, written directly")
struct ProductJSONTests {
    @Test("1,000 random summaries, alone and in a page: the same bytes as JSONEncoder")
    func sameBytesAsEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        var page: [Product] = []
        for _ in 0..<1_000 {
            let summary = Product(
                id: UUID(), name: ["Oat milk", #"The "best" \ milk"#, "Crème fraîche ✓"].randomElement(using: &generator)!,
                brand: "Öko", category: "dairy", unit: "1 l",
                image: Bool.random(using: &generator) ? nil : "https://images.example/milk.jpg",
                caloriesPerUnit: Int.random(in: 0...900, using: &generator),
                cheapestPrice: Bool.random(using: &generator)
                    ? nil : Money(amountMinor: Int.random(in: 0...10_000, using: &generator), currency: "EUR"),
                averageRating: Bool.random(using: &generator) ? nil : (Double.random(in: 1...5, using: &generator) * 100).rounded() / 100,
                reviewCount: Int.random(in: 0...500, using: &generator))
            #expect(try ResponseJSON.encode(summary) == foundationJSON(summary))
            page.append(summary)
        }
        for cursor in [nil, "next/page"] {
            let wrapped = Page(items: Array(page.prefix(20)), nextCursor: cursor)
            #expect(try ResponseJSON.encode(wrapped) == foundationJSON(wrapped))
        }
    }
}
