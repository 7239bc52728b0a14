import Foundation

/// A list as the write side sees it: who may touch it and the state of each item. Built
/// by replaying its changes; texts are not needed to decide, so it holds none.
public struct ShoppingListState: Sendable, Equatable {
    /// One item: how many, whether it is checked, whether it was removed, and where it sorts.
    public struct Item: Sendable, Equatable {
        public var quantity: Int
        public var checked: Bool
        public var removed: Bool
        public var rank: Double
    }

    public private(set) var ownerId: UUID?
    /// Accounts the owner shared the list with (the owner not included).
    public private(set) var members: Set<UUID> = []
    public private(set) var isDeleted = false
    public private(set) var items: [UUID: Item] = [:]

    public init() {}

    /// The state after `changes`, oldest first.
    public static func replay(_ changes: [ShoppingListChange]) -> ShoppingListState {
        var state = ShoppingListState()
        for change in changes { state.evolve(change) }
        return state
    }

    /// Whether the list was made and not deleted.
    public var exists: Bool { ownerId != nil && !isDeleted }

    /// Whether `account` may read and edit the list.
    public func isMember(_ account: UUID) -> Bool {
        exists && (ownerId == account || members.contains(account))
    }

    /// The state after one more change.
    public mutating func evolve(_ change: ShoppingListChange) {
        switch change {
        case .created(let owner, _): ownerId = owner
        case .renamed: break
        case .deleted: isDeleted = true
        case .memberAdded(let account): members.insert(account)
        case .memberRemoved(let account, _): members.remove(account)
        case let .itemAdded(draft, rank):
            items[draft.itemId] = Item(quantity: draft.quantity, checked: false, removed: false, rank: rank)
        case let .quantityChanged(itemId, delta):
            // A stored change is a fact, and replaying it must not trap.
            if let quantity = items[itemId]?.quantity { items[itemId]?.quantity = quantity.saturatingSum(delta) }
        case let .checkSet(itemId, checked): items[itemId]?.checked = checked
        case .noteSet: break
        case let .moved(itemId, rank): items[itemId]?.rank = rank
        case .itemRemoved(let itemId): items[itemId]?.removed = true
        }
    }

    /// The live items in list order.
    public var orderedLiveItems: [(id: UUID, item: Item)] {
        items.filter { !$0.value.removed }.map { (id: $0.key, item: $0.value) }
            .sorted { ($0.item.rank, $0.id.uuidString) < ($1.item.rank, $1.id.uuidString) }
    }
}
