import CommonsAPI
import Contracts
import Foundation
import ShoppingListsDomain
import Testing

/// given(changes) / when(command) / then(error): no number a client sends makes the domain trap (issue 21).
@Suite("quantity arithmetic cannot trap")
struct QuantityBoundsTests {
    let owner = UUID()
    let milk = UUID()

    func given(quantity: Int, then more: ShoppingListChange...) -> ShoppingListState {
        .replay(
            [
                .created(ownerId: owner, name: nil),
                .itemAdded(ItemDraft(itemId: milk, authorId: owner, productId: nil, text: "milk", quantity: quantity, note: nil), rank: 1),
            ] + more)
    }

    @Test("a delta outside ±1,000,000 is refused for its size, Int.max and Int.min included")
    func deltaBounds() throws {
        let state = given(quantity: 2)
        for delta in [Int.max, Int.min, 1_000_001, -1_000_001] {
            #expect(throws: ShoppingListError.invalid(["delta": ["must be from -1000000 to 1000000"]])) {
                try state.decide(.changeQuantity(itemId: milk, delta: delta), by: owner)
            }
        }
        #expect(throws: ShoppingListError.invalid(["delta": ["would make the quantity 1000002; it must be from 1 to 999"]])) {
            try state.decide(.changeQuantity(itemId: milk, delta: 1_000_000), by: owner)
        }
        #expect(try state.decide(.changeQuantity(itemId: milk, delta: 997), by: owner) == [.quantityChanged(itemId: milk, delta: 997)])
    }

    @Test("a replayed quantity near Int.max saturates instead of trapping, and a further delta is refused")
    func replayedOverflow() throws {
        let state = given(quantity: Int.max - 1, then: .quantityChanged(itemId: milk, delta: 1_000), .quantityChanged(itemId: milk, delta: 5))
        #expect(state.items[milk]?.quantity == Int.max)
        #expect(throws: ShoppingListError.invalid(["delta": ["would make the quantity overflow"]])) {
            try state.decide(.changeQuantity(itemId: milk, delta: 1), by: owner)
        }
        let low = given(quantity: Int.min + 1, then: .quantityChanged(itemId: milk, delta: -1_000))
        #expect(low.items[milk]?.quantity == Int.min)
        #expect(throws: ShoppingListError.invalid(["delta": ["would make the quantity overflow"]])) {
            try low.decide(.changeQuantity(itemId: milk, delta: -1), by: owner)
        }
    }

    @Test("an item's quantity is 1–999 whatever is asked, Int.max and Int.min included")
    func addBounds() {
        for quantity in [Int.max, Int.min, 0, 1_000] {
            #expect(throws: ShoppingListError.invalid(["quantity": ["must be from 1 to 999"]])) {
                try given(quantity: 1).decide(.addItem(itemId: UUID(), productId: nil, text: "tea", quantity: quantity, note: nil), by: owner)
            }
        }
    }

    @Test("totals that would overflow stay at Int.max instead of trapping")
    func totalsSaturate() {
        let dear = CommonsAPI.Money(amountMinor: Int.max / 2, currency: "EUR")
        let totals = ListTotals.of([
            ListTotals.Line(quantity: 3, caloriesPerUnit: Int.max, cheapest: dear),
            ListTotals.Line(quantity: 999, caloriesPerUnit: 1, cheapest: dear),
        ])
        #expect(totals.calories == Int.max)
        #expect(totals.prices == [CommonsAPI.Money(amountMinor: Int.max, currency: "EUR")])
    }
}
