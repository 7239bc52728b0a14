import Foundation

/// What a person asks of a list. Item commands name items by id, which the client may
/// choose (offline edits refer to items they added before syncing).
public enum ShoppingListCommand: Sendable, Equatable {
    case create(name: String)
    case rename(name: String)
    case delete
    case addMember(UUID)
    /// Leaving (the member themselves) or removing a member (the owner).
    case removeMember(UUID)
    case addItem(itemId: UUID, productId: UUID?, text: String?, quantity: Int, note: String?)
    case changeQuantity(itemId: UUID, delta: Int)
    case setChecked(itemId: UUID, checked: Bool)
    case setNote(itemId: UUID, note: String?)
    /// Moves an item just after another one, or to the top when `after` is nil.
    case move(itemId: UUID, after: UUID?)
    case removeItem(itemId: UUID)
}
