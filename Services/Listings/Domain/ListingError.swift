import Contracts
import Foundation

/// What can go wrong in a listings command. The service maps each to a problem document.
public enum ListingError: Error, Equatable, Sendable {
    /// Fields that break the rules, every one of them, by JSON path.
    case invalid([String: [String]])
    case notFound
    /// Only the owner may do this.
    case notOwner
    /// The move is not allowed from the listing's current status.
    case illegalTransition(from: ListingStatus, to: ListingStatus)
    /// Only an available or promised listing can be edited.
    case notEditable(ListingStatus)
    /// Renewed too recently; the next renewal is allowed at this time.
    case renewedTooRecently(nextAllowedAt: Date)
    /// The request does not exist for this listing.
    case requestNotFound
    /// Owners do not request or report their own listings.
    case ownListing
    /// One request per person and listing (``RequestLedger``).
    case alreadyRequested
    case commentNotFound
}
