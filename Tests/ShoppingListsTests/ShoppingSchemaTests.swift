import CommonsAPI
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import ShoppingListsService

/// The shopping-lists API answers CommonsAPI's types and declares their OpenAPI schemas by
/// hand; each type, with every optional set and with none, must be what its schema says.
@Suite("the shopping-lists API's schemas and CommonsAPI's types")
struct ShoppingSchemaTests {
    private static let at = Date(timeIntervalSince1970: 1_800_000_000)
    private static let price = Money(amountMinor: 129, currency: .eur)

    private static func product(all: Bool) -> Product {
        Product(
            id: UUID(), name: "Oat milk", brand: "Oaty", category: "dairy", unit: "1 l", image: all ? "/images/oat.png" : nil, caloriesPerUnit: 450,
            cheapestPrice: all ? price : nil, averageRating: all ? 4.5 : nil, reviewCount: 2)
    }

    private static func offer(all: Bool) -> Offer {
        Offer(
            storeId: UUID(), retailer: "Corner", storeName: "Corner Shop", address: "Main St 1", lat: 52.5, lon: 13.4, price: price,
            directionsURL: "https://maps.apple.com/?daddr=52.5,13.4", distanceMeters: all ? 120 : nil, cheapestNearby: true)
    }

    private static func list(all: Bool) -> ShoppingList {
        let item = ListItem(
            id: UUID(), productId: all ? UUID() : nil, product: all ? product(all: true) : nil, text: all ? "Oat milk" : nil, quantity: 2,
            checked: false, note: all ? "the blue one" : nil, addedBy: UUID())
        return ShoppingList(
            id: UUID(), name: "Weekend", ownerId: UUID(), role: "owner", members: [UUID()], items: [item],
            totals: ListTotals(calories: 900, prices: [price], unpricedItems: 0), version: 4)
    }

    private static func results(all: Bool) -> ListCommandResults {
        let problem = ProblemDocument(
            type: "https://commons.example/problems/validation", title: "Invalid request", status: 422, detail: "The request has invalid fields.",
            errors: all ? ["quantity": ["must be 1 to 999"]] : nil, extensions: all ? ["version": "3"] : nil)
        return ListCommandResults(
            results: [
                "a": .init(status: "applied", replayed: all ? true : nil, problem: all ? problem : nil),
                "b": .init(status: "rejected", replayed: all ? false : nil, problem: all ? problem : nil),
            ],
            version: 4)
    }

    @Test("every answer type, with every optional field and with none, has exactly the fields its schema names and requires")
    func typesMatchSchemas() throws {
        for fields in [SchemaFields.all, .required] {
            let all = fields == .all
            var found: [String] = []
            found += try schemaMismatches(Self.product(all: all), ShoppingListsAPI.productBody, fields: fields)
            found += try schemaMismatches(Self.offer(all: all), ShoppingListsAPI.offerBody, fields: fields)
            found += try schemaMismatches(
                ProductDetail(product: Self.product(all: all), offers: [Self.offer(all: all)], favorite: all ? true : nil),
                ShoppingListsAPI.productDetailBody, fields: fields)
            found += try schemaMismatches(
                RelatedProduct(product: Self.product(all: all), sharedLists: 3), ShoppingListsAPI.relatedBody, fields: fields)
            found += try schemaMismatches(
                PricePoint(storeId: UUID(), price: all ? Self.price : nil, since: Self.at), ShoppingListsAPI.priceEntryBody, fields: fields)
            found += try schemaMismatches(
                Review(productId: UUID(), authorId: UUID(), rating: 4, text: "Creamy", at: Self.at), ShoppingListsAPI.reviewBody, fields: .all)
            found += try schemaMismatches(
                ListSummary(id: UUID(), name: "Weekend", ownerId: UUID(), role: "member", itemCount: 3, uncheckedCount: 1, version: 2),
                ShoppingListsAPI.listSummaryBody, fields: .all)
            found += try schemaMismatches(Self.list(all: all), ShoppingListsAPI.listBody, fields: fields)
            found += try schemaMismatches(ListItemState(id: UUID(), quantity: 1, checked: true), ShoppingListsAPI.itemStateBody, fields: .all)
            found += try schemaMismatches(Self.results(all: all), ShoppingListsAPI.batchBody, fields: fields)
            found += try schemaMismatches(
                Page(items: [Self.product(all: all)], nextCursor: all ? "next" : nil), ShoppingListsAPI.page(of: ShoppingListsAPI.productBody),
                fields: fields)
            #expect(found.isEmpty, "\(fields): \(found)")
        }
    }
}
