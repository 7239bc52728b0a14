import Foundation

/// What a list's live stream sends (``ShoppingListsEndpoints/live(_:until:)``): the list as it
/// is when the stream starts, then each change after it.
public enum ListStreamEvent: Sendable, Equatable {
    /// The whole list at `version`; the changes that follow come after it.
    case snapshot(ShoppingList)
    /// One change.
    case change(ListChange)

    /// The list's version after this event.
    public var version: Int64 {
        switch self {
        case .snapshot(let list): list.version
        case .change(let change): change.version
        }
    }
}

/// What my lists' live stream sends (``ShoppingListsEndpoints/liveMyLists(after:)``).
public enum MyListsEvent: Sendable, Equatable {
    /// A new stream begins here: my lists read with this position miss nothing that follows.
    case ready(position: String)
    /// A list of mine changed.
    case change(MyListChange)
}
