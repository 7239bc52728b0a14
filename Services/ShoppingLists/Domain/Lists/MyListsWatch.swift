import Foundation

/// One account following its lists: which list-level changes (a list made, renamed,
/// deleted, a member added or removed) reach its "my lists" stream. A change is theirs when
/// they are a member of the list just before it or just after it, so they learn of a list
/// shared with them, of being removed, and of a deletion, and of nothing on others' lists.
public struct MyListsWatch: Sendable {
    private let watcher: UUID
    /// Whether the watcher is a member of each list seen so far, as of its last change.
    private var membership: [UUID: Bool] = [:]

    /// Follows the lists of `watcher`.
    public init(watcher: UUID) {
        self.watcher = watcher
    }

    /// Whether the watcher's part in `list` is known; when not, ``learn(_:before:)`` tells it.
    public func knows(_ list: UUID) -> Bool { membership[list] != nil }

    /// Records the list as it was before the next change taken for it.
    public mutating func learn(_ list: UUID, before state: ShoppingListState) {
        membership[list] = state.isMember(watcher)
    }

    /// Takes the next change of `list`: whether the watcher is sent it. A list not learnt is
    /// taken as one they are not a member of (right for its first change, `created`).
    public mutating func admit(_ change: ShoppingListChange, of list: UUID) -> Bool {
        let before = membership[list] ?? false
        var after = before
        switch change {
        case .created(let owner, _): after = owner == watcher
        case .memberAdded(let account) where account == watcher: after = true
        case .memberRemoved(let account, _) where account == watcher: after = false
        case .deleted: after = false
        default: break
        }
        membership[list] = after
        return before || after
    }
}
