import Contracts
import Foundation
import ShoppingListsDomain

/// A list as a member sees it.
struct ListView: Codable, Sendable {
    var id: UUID
    var name: String
    var ownerId: UUID
    /// `owner` or `member`: the caller's part.
    var role: String
    var members: [UUID]
    var items: [ItemView]
    var totals: ListTotals
    var version: Int64
}

/// An item of a list.
struct ItemView: Codable, Sendable {
    var id: UUID
    var productId: UUID?
    /// The catalogue product, when the item is one.
    var product: ProductSummary?
    /// The free text, when the item is not a product.
    var text: String?
    var quantity: Int
    var checked: Bool
    var note: String?
    var addedBy: UUID
}

/// A list in "my lists".
struct ListSummary: Codable, Sendable {
    var id: UUID
    var name: String
    var ownerId: UUID
    var role: String
    var itemCount: Int
    var uncheckedCount: Int
    var version: Int64
}

extension ShoppingListsAPI {
    /// Opens the texts of a stored list for `caller`.
    func view(_ list: StoredList, for caller: UUID, reader: SealedTextReader) async throws -> ListView {
        var items: [ItemView] = []
        for item in list.items {
            let text = try await reader.open(stored: item.textSealed)
            // A free-text item whose writer's key is gone has nothing left to show.
            if item.productId == nil, text == nil { continue }
            items.append(
                ItemView(
                    id: item.itemId, productId: item.productId, product: item.product, text: text, quantity: item.quantity,
                    checked: item.checked, note: try await reader.open(stored: item.noteSealed), addedBy: item.authorId))
        }
        let totals = ListTotals.of(
            items.map {
                ListTotals.Line(quantity: $0.quantity, caloriesPerUnit: $0.product?.caloriesPerUnit, cheapest: $0.product?.cheapestPrice)
            })
        return ListView(
            id: list.listId, name: try await reader.open(stored: list.nameSealed) ?? "", ownerId: list.ownerId,
            role: list.ownerId == caller ? "owner" : "member", members: list.members, items: items, totals: totals,
            version: list.version)
    }

    func summary(_ list: StoredList, for caller: UUID, reader: SealedTextReader) async throws -> ListSummary {
        ListSummary(
            id: list.listId, name: try await reader.open(stored: list.nameSealed) ?? "", ownerId: list.ownerId,
            role: list.ownerId == caller ? "owner" : "member", itemCount: list.items.count,
            uncheckedCount: list.items.filter { !$0.checked }.count, version: list.version)
    }
}
