import EventLog
import Foundation

// Events of the `listings` service that other services read (geo-search among them).
// They are the contract the listings service will append: the listings service writes
// them, nobody else does. Stream: `listing-<listingId>`.

/// An amount of money: integer minor units (cents, pence) and an ISO 4217 currency code.
public struct Money: Codable, Sendable, Hashable {
    public var amountMinor: Int
    public var currency: String

    public init(amountMinor: Int, currency: String) {
        self.amountMinor = amountMinor
        self.currency = currency
    }
}

/// Where a listing is in its life. Only `available` and `promised` listings can be found
/// by geo-search; the others leave its index.
public enum ListingStatus: String, Codable, Sendable, CaseIterable {
    case available, promised, given, sold, withdrawn, expired, hidden
}

/// Someone posted a listing: a free item (no `price`) or one for sale. Written by the
/// listings service. Stream: `listing-<listingId>`.
///
/// `publicLocation` is the approximate point the listings service computed with geo-search's
/// `PublicLocation` (within 500 m of the pickup point, the same for every point of its grid
/// cell); the exact pickup point never appears in this event.
public struct ListingPosted: EventContract, Equatable {
    public static let eventType = "ListingPosted"
    public var listingId: UUID
    public var ownerId: UUID
    /// In clear only in events appended before listing text was sealed, and in memory once
    /// ``text`` is opened; nil in the log otherwise.
    public var title: String?
    /// As ``title``.
    public var description: String?
    /// The ``ListingText`` sealed with the owner's personal-data key: deleting the account
    /// leaves the log with nothing readable of what the person wrote.
    public var text: Sealed?
    public var category: String
    /// Nil for a free item.
    public var price: Money?
    /// The approximate, public point; never the exact one.
    public var publicLocation: Coordinate
    public var postedAt: Date

    public init(
        listingId: UUID, ownerId: UUID, title: String?, description: String?, text: Sealed? = nil, category: String,
        price: Money?, publicLocation: Coordinate, postedAt: Date
    ) {
        self.listingId = listingId
        self.ownerId = ownerId
        self.title = title
        self.description = description
        self.text = text
        self.category = category
        self.price = price
        self.publicLocation = publicLocation
        self.postedAt = postedAt
    }
}

/// The owner edited a listing; every field is the new whole value. Written by the listings
/// service. Stream: `listing-<listingId>`.
public struct ListingEdited: EventContract, Equatable {
    public static let eventType = "ListingEdited"
    public var listingId: UUID
    /// As ``ListingPosted/title``.
    public var title: String?
    /// As ``ListingPosted/description``.
    public var description: String?
    /// As ``ListingPosted/text``.
    public var text: Sealed?
    public var category: String
    /// Nil for a free item.
    public var price: Money?
    /// The approximate, public point (recomputed with `PublicLocation` when the pickup point moved).
    public var publicLocation: Coordinate

    public init(
        listingId: UUID, title: String?, description: String?, text: Sealed? = nil, category: String, price: Money?,
        publicLocation: Coordinate
    ) {
        self.listingId = listingId
        self.title = title
        self.description = description
        self.text = text
        self.category = category
        self.price = price
        self.publicLocation = publicLocation
    }
}

/// A listing's status changed (promised to someone, given, sold, withdrawn, expired, hidden
/// by a moderator, or available again). Written by the listings service. Stream: `listing-<listingId>`.
public struct ListingStatusChanged: EventContract, Equatable {
    public static let eventType = "ListingStatusChanged"
    public var listingId: UUID
    public var status: ListingStatus

    public init(listingId: UUID, status: ListingStatus) {
        self.listingId = listingId
        self.status = status
    }
}

/// What the owner wrote about a listing, sealed into ``ListingPosted/text`` and
/// ``ListingEdited/text``.
public struct ListingText: Codable, Sendable, Hashable {
    public var title: String
    public var description: String

    public init(title: String, description: String) {
        self.title = title
        self.description = description
    }
}

/// The events that carry a listing's text: in clear (`title`, `description`), or sealed
/// (`text`) as the listings service appends them.
public protocol CarriesListingText: EventContract {
    var title: String? { get set }
    var description: String? { get set }
    var text: Sealed? { get set }
}

extension ListingPosted: CarriesListingText {}
extension ListingEdited: CarriesListingText {}
