import Contracts
import EventLog
import Foundation

/// One fact about a list, as the domain decides it: the events of a `list-<id>` stream
/// with their texts in clear. The service seals the texts into the stored events; read
/// back, the texts are nil (the domain never needs them to decide).
public enum ShoppingListChange: Sendable, Equatable {
    case created(ownerId: UUID, name: String?)
    case renamed(name: String?)
    case deleted
    case memberAdded(UUID)
    case memberRemoved(UUID, by: UUID)
    case itemAdded(ItemDraft, rank: Double)
    case quantityChanged(itemId: UUID, delta: Int)
    case checkSet(itemId: UUID, checked: Bool)
    case noteSet(itemId: UUID, note: String?)
    case moved(itemId: UUID, rank: Double)
    case itemRemoved(itemId: UUID)

    /// The change a stored event records (texts left out), or nil for other events.
    public init?(_ event: any EventContract) {
        switch event {
        case let created as ShoppingListCreated: self = .created(ownerId: created.ownerId, name: nil)
        case is ShoppingListRenamed: self = .renamed(name: nil)
        case is ShoppingListDeleted: self = .deleted
        case let added as ShoppingListMemberAdded: self = .memberAdded(added.accountId)
        case let removed as ShoppingListMemberRemoved: self = .memberRemoved(removed.accountId, by: removed.removedBy)
        case let added as ShoppingListItemAdded:
            self = .itemAdded(
                ItemDraft(
                    itemId: added.itemId, authorId: added.authorId, productId: added.productId, text: nil,
                    quantity: added.quantity, note: nil), rank: added.rank)
        case let changed as ShoppingListItemQuantityChanged: self = .quantityChanged(itemId: changed.itemId, delta: changed.delta)
        case let checked as ShoppingListItemCheckSet: self = .checkSet(itemId: checked.itemId, checked: checked.checked)
        case let noted as ShoppingListItemNoteSet: self = .noteSet(itemId: noted.itemId, note: nil)
        case let moved as ShoppingListItemMoved: self = .moved(itemId: moved.itemId, rank: moved.rank)
        case let removed as ShoppingListItemRemoved: self = .itemRemoved(itemId: removed.itemId)
        default: return nil
        }
    }
}

/// A new item: a catalogue product or free text, with a quantity and an optional note.
public struct ItemDraft: Sendable, Equatable {
    public var itemId: UUID
    public var authorId: UUID
    public var productId: UUID?
    public var text: String?
    public var quantity: Int
    public var note: String?

    public init(itemId: UUID, authorId: UUID, productId: UUID?, text: String?, quantity: Int, note: String?) {
        self.itemId = itemId
        self.authorId = authorId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
    }
}
