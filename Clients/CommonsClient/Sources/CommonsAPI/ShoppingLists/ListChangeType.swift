/// What a ``ListChange`` did: the stored name of the list's event. A newer server may send
/// kinds this SDK does not know; they decode too (see ``OpenEnum``).
public struct ListChangeType: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The list was created (`name`, and its owner as `accountId`).
    public static let created: Self = "ShoppingListCreated"
    /// The list was renamed (`name`).
    public static let renamed: Self = "ShoppingListRenamed"
    /// The list was deleted.
    public static let deleted: Self = "ShoppingListDeleted"
    /// Someone joined the list (`accountId`).
    public static let memberAdded: Self = "ShoppingListMemberAdded"
    /// Someone left or was removed (`accountId`).
    public static let memberRemoved: Self = "ShoppingListMemberRemoved"
    /// An item was added (`itemId`, `text` or `productId`, `quantity`, `rank`).
    public static let itemAdded: Self = "ShoppingListItemAdded"
    /// An item was removed (`itemId`).
    public static let itemRemoved: Self = "ShoppingListItemRemoved"
    /// An item was checked or unchecked (`itemId`, `checked`).
    public static let itemCheckSet: Self = "ShoppingListItemCheckSet"
    /// An item's quantity changed (`itemId`, `quantity`, `delta`).
    public static let itemQuantityChanged: Self = "ShoppingListItemQuantityChanged"
    /// An item's note was set (`itemId`, `note`).
    public static let itemNoteSet: Self = "ShoppingListItemNoteSet"
    /// An item moved (`itemId`, `rank`).
    public static let itemMoved: Self = "ShoppingListItemMoved"

    public static let known: [Self] = [
        .created, .renamed, .deleted, .memberAdded, .memberRemoved, .itemAdded, .itemRemoved, .itemCheckSet,
        .itemQuantityChanged, .itemNoteSet, .itemMoved,
    ]
}
