import EventLog
import Foundation

// Events of shared shopping lists. Stream: `list-<listId>`. What people write (the list's
// name, free-text items, notes) is sealed with the key of the account that wrote it, so
// deleting that account makes it unreadable everywhere. Item changes are commutative:
// quantities change by deltas, and checking sets a value, so concurrent edits merge.

/// A list was made by its owner. `name` is a sealed `String`.
public struct ShoppingListCreated: EventContract, Equatable {
    public static let eventType = "ShoppingListCreated"
    public var listId: UUID
    public var ownerId: UUID
    public var name: Sealed

    public init(listId: UUID, ownerId: UUID, name: Sealed) {
        self.listId = listId
        self.ownerId = ownerId
        self.name = name
    }
}

/// The owner renamed the list. `name` is a sealed `String`, sealed with the owner's key.
public struct ShoppingListRenamed: EventContract, Equatable {
    public static let eventType = "ShoppingListRenamed"
    public var listId: UUID
    public var name: Sealed

    public init(listId: UUID, name: Sealed) {
        self.listId = listId
        self.name = name
    }
}

/// The owner deleted the list.
public struct ShoppingListDeleted: EventContract, Equatable {
    public static let eventType = "ShoppingListDeleted"
    public var listId: UUID

    public init(listId: UUID) { self.listId = listId }
}

/// The owner shared the list with another account, which can now read and edit it.
public struct ShoppingListMemberAdded: EventContract, Equatable {
    public static let eventType = "ShoppingListMemberAdded"
    public var listId: UUID
    public var accountId: UUID

    public init(listId: UUID, accountId: UUID) {
        self.listId = listId
        self.accountId = accountId
    }
}

/// A member left, or the owner removed them (`removedBy` the owner).
public struct ShoppingListMemberRemoved: EventContract, Equatable {
    public static let eventType = "ShoppingListMemberRemoved"
    public var listId: UUID
    public var accountId: UUID
    public var removedBy: UUID

    public init(listId: UUID, accountId: UUID, removedBy: UUID) {
        self.listId = listId
        self.accountId = accountId
        self.removedBy = removedBy
    }
}

/// An item was added: a catalogue product, or free text (a sealed `String`), with a
/// quantity and an optional sealed note, both sealed with the author's key.
public struct ShoppingListItemAdded: EventContract, Equatable {
    public static let eventType = "ShoppingListItemAdded"
    public var listId: UUID
    public var itemId: UUID
    public var authorId: UUID
    public var productId: UUID?
    public var text: Sealed?
    public var quantity: Int
    public var note: Sealed?
    /// Where the item sorts among the others (smaller first).
    public var rank: Double

    public init(listId: UUID, itemId: UUID, authorId: UUID, productId: UUID?, text: Sealed?, quantity: Int, note: Sealed?, rank: Double) {
        self.listId = listId
        self.itemId = itemId
        self.authorId = authorId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
        self.rank = rank
    }
}

/// An item's quantity changed by `delta`: two concurrent increments both count.
public struct ShoppingListItemQuantityChanged: EventContract, Equatable {
    public static let eventType = "ShoppingListItemQuantityChanged"
    public var listId: UUID
    public var itemId: UUID
    public var delta: Int

    public init(listId: UUID, itemId: UUID, delta: Int) {
        self.listId = listId
        self.itemId = itemId
        self.delta = delta
    }
}

/// An item was checked off (`checked` true) or unchecked: a value, not a toggle, so two
/// people checking the same item agree.
public struct ShoppingListItemCheckSet: EventContract, Equatable {
    public static let eventType = "ShoppingListItemCheckSet"
    public var listId: UUID
    public var itemId: UUID
    public var checked: Bool

    public init(listId: UUID, itemId: UUID, checked: Bool) {
        self.listId = listId
        self.itemId = itemId
        self.checked = checked
    }
}

/// An item's note changed; nil clears it. Sealed with the key of `authorId`.
public struct ShoppingListItemNoteSet: EventContract, Equatable {
    public static let eventType = "ShoppingListItemNoteSet"
    public var listId: UUID
    public var itemId: UUID
    public var authorId: UUID
    public var note: Sealed?

    public init(listId: UUID, itemId: UUID, authorId: UUID, note: Sealed?) {
        self.listId = listId
        self.itemId = itemId
        self.authorId = authorId
        self.note = note
    }
}

/// An item moved to `rank` (between its new neighbours).
public struct ShoppingListItemMoved: EventContract, Equatable {
    public static let eventType = "ShoppingListItemMoved"
    public var listId: UUID
    public var itemId: UUID
    public var rank: Double

    public init(listId: UUID, itemId: UUID, rank: Double) {
        self.listId = listId
        self.itemId = itemId
        self.rank = rank
    }
}

/// An item was removed; later edits to it are refused.
public struct ShoppingListItemRemoved: EventContract, Equatable {
    public static let eventType = "ShoppingListItemRemoved"
    public var listId: UUID
    public var itemId: UUID

    public init(listId: UUID, itemId: UUID) {
        self.listId = listId
        self.itemId = itemId
    }
}
