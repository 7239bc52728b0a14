import Foundation

/// One member following a list live: which of the list's new changes they may still be
/// sent. A change that ends their membership (their removal, leaving, the list's deletion)
/// is the last one they get; nothing after it reaches them, even when it arrives in the
/// same read as the removal.
public struct ListWatch: Sendable {
    /// The list as of the last change admitted.
    public private(set) var state: ShoppingListState
    /// Whether the watcher has stopped being a member; nothing more is admitted.
    public private(set) var isOver: Bool
    private let watcher: UUID

    /// Follows the list from `state` for `watcher`.
    public init(state: ShoppingListState, watcher: UUID) {
        self.state = state
        self.watcher = watcher
        self.isOver = !state.isMember(watcher)
    }

    /// Takes the next change (nil for an event that is not a list change): whether the
    /// watcher may be sent it.
    public mutating func admit(_ change: ShoppingListChange?) -> Bool {
        guard !isOver else { return false }
        if let change { state.evolve(change) }
        isOver = !state.isMember(watcher)
        return true
    }
}
