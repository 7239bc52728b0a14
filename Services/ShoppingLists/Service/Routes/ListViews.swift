import CommonsAPI
import Contracts
import Foundation
import ServiceKit
import ShoppingListsDomain

// Lists answer as CommonsAPI's `ShoppingList` and `ListSummary`, the SDK's types.

extension ShoppingListsAPI {
    /// Opens the texts of a stored list for `caller`.
    func view(_ list: StoredList, for caller: UUID, reader: SealedTextReader) async throws -> ShoppingList {
        var items: [ListItem] = []
        for item in list.items {
            let text = try await reader.open(stored: item.textSealed)
            // A free-text item whose writer's key is gone has nothing left to show.
            if item.productId == nil, text == nil { continue }
            items.append(
                ListItem(
                    id: item.itemId, productId: item.productId, product: item.product, text: text, quantity: item.quantity,
                    checked: item.checked, note: try await reader.open(stored: item.noteSealed), addedBy: item.authorId))
        }
        let totals = ListTotals.of(
            items.map { ListTotals.Line(quantity: $0.quantity, caloriesPerUnit: $0.product?.caloriesPerUnit, cheapest: $0.product?.cheapestPrice) })
        return ShoppingList(
            id: list.listId, name: try await reader.open(stored: list.nameSealed) ?? "", ownerId: list.ownerId,
            role: list.ownerId == caller ? "owner" : "member", members: list.members, items: items,
            totals: totals,
            version: list.version)
    }

    func summary(_ list: StoredList, for caller: UUID, reader: SealedTextReader) async throws -> ListSummary {
        ListSummary(
            id: list.listId, name: try await reader.open(stored: list.nameSealed) ?? "", ownerId: list.ownerId,
            role: list.ownerId == caller ? "owner" : "member", itemCount: list.items.count,
            uncheckedCount: list.items.filter { !$0.checked }.count, version: list.version)
    }
}
