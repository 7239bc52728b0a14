import Foundation

/// Why a list command was refused. Domain errors know nothing of HTTP.
public enum ShoppingListError: Error, Sendable, Equatable {
    /// Fields that break the rules, by field name.
    case invalid([String: [String]])
    /// No such list, deleted, or the caller is not a member: all look the same.
    case listNotFound
    case listExists
    case itemNotFound
    /// The item was removed; edits to it are refused rather than resurrecting it.
    case itemRemoved
    case itemExists
    /// The list holds ``ShoppingListRules/maxItems`` items already.
    case listFull
    /// Only the owner may do this (the caller is a member, so may know the list exists).
    case ownerOnly
    case ownerCannotLeave
    case memberNotFound
}
