import Foundation

/// A list as a member sees it (`GET /v1/lists/{id}`).
public struct ShoppingList: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var ownerId: UUID
    /// `owner` or `member`: my part.
    public var role: String
    public var members: [UUID]
    public var items: [ListItem]
    public var totals: ListTotals
    /// The aggregate's version: the `ETag` and `If-Match` of a rename.
    public var version: Int64

    public init(
        id: UUID, name: String, ownerId: UUID, role: String, members: [UUID], items: [ListItem], totals: ListTotals, version: Int64
    ) {
        self.id = id
        self.name = name
        self.ownerId = ownerId
        self.role = role
        self.members = members
        self.items = items
        self.totals = totals
        self.version = version
    }
}

/// An item of a list: a catalogue product or free text.
public struct ListItem: Codable, Sendable, Equatable {
    public var id: UUID
    public var productId: UUID?
    /// The catalogue product, when the item is one.
    public var product: Product?
    /// The free text, when the item is not a product.
    public var text: String?
    public var quantity: Int
    public var checked: Bool
    public var note: String?
    public var addedBy: UUID

    public init(
        id: UUID, productId: UUID?, product: Product?, text: String?, quantity: Int, checked: Bool, note: String?, addedBy: UUID
    ) {
        self.id = id
        self.productId = productId
        self.product = product
        self.text = text
        self.quantity = quantity
        self.checked = checked
        self.note = note
        self.addedBy = addedBy
    }
}

/// A list's totals: calories, the cheapest prices per currency, and items with no price.
public struct ListTotals: Codable, Sendable, Equatable {
    public var calories: Int
    public var prices: [Money]
    public var unpricedItems: Int

    public init(calories: Int, prices: [Money], unpricedItems: Int) {
        self.calories = calories
        self.prices = prices
        self.unpricedItems = unpricedItems
    }
}

/// A list in "my lists" (`GET /v1/lists`).
public struct ListSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var ownerId: UUID
    /// `owner` or `member`: my part.
    public var role: String
    public var itemCount: Int
    public var uncheckedCount: Int
    public var version: Int64

    public init(id: UUID, name: String, ownerId: UUID, role: String, itemCount: Int, uncheckedCount: Int, version: Int64) {
        self.id = id
        self.name = name
        self.ownerId = ownerId
        self.role = role
        self.itemCount = itemCount
        self.uncheckedCount = uncheckedCount
        self.version = version
    }
}

/// An item's state after a change.
public struct ListItemState: Codable, Sendable, Equatable {
    public var id: UUID
    public var quantity: Int
    public var checked: Bool

    public init(id: UUID, quantity: Int, checked: Bool) {
        self.id = id
        self.quantity = quantity
        self.checked = checked
    }
}
