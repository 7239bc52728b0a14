import Contracts
import EventLog
import Foundation

/// A listing as its stream tells it: the state every decision starts from.
public struct ListingState: Sendable, Equatable {
    public var id: UUID?
    public var ownerId: UUID?
    public var title = ""
    public var description = ""
    public var category = ""
    public var condition = ""
    public var price: Money?
    public var pickupTimes = PickupTimes()
    public var imageIds: [UUID] = []
    public var publicLocation: Coordinate?
    /// The exact place, sealed with the owner's key.
    public var pickupPlace: Sealed?
    /// The status as stored; see ``status(at:)`` for the one that counts.
    public var storedStatus: ListingStatus = .available
    /// The status a listing goes back to when a moderator lets a hidden listing be.
    public var statusBeforeHidden: ListingStatus?
    public var promisedTo: UUID?
    public var postedAt: Date?
    public var expiresAt: Date?
    public var lastRenewedAt: Date?
    /// The stream's version: the ETag.
    public var version: Int64 = 0

    public init() {}

    /// True once the listing has been posted.
    public var exists: Bool { id != nil }

    /// The status at `now`: an available listing past its expiry is expired, whether or not
    /// the expiry has been written down yet.
    public func status(at now: Date) -> ListingStatus {
        if storedStatus == .available, let expiresAt, now >= expiresAt { return .expired }
        return storedStatus
    }

    /// The state after `events`, which are the stream's, oldest first.
    public static func replay(_ events: [any EventContract], version: Int64) -> ListingState {
        var state = ListingState()
        for event in events { state.evolve(event) }
        state.version = version
        return state
    }

    /// Applies one event.
    public mutating func evolve(_ event: any EventContract) {
        switch event {
        case let posted as ListingPosted:
            id = posted.listingId
            ownerId = posted.ownerId
            // Opened by the caller: the log has them sealed (an unreadable text is empty).
            title = posted.title ?? ""
            description = posted.description ?? ""
            category = posted.category
            price = posted.price
            publicLocation = posted.publicLocation
            postedAt = posted.postedAt
            storedStatus = .available
        case let edited as ListingEdited:
            title = edited.title ?? ""
            description = edited.description ?? ""
            category = edited.category
            price = edited.price
            publicLocation = edited.publicLocation
        case let details as ListingDetailsSet:
            condition = details.condition
            pickupTimes = details.pickupTimes
            imageIds = details.imageIds
        case let place as ListingPickupPlaceSet:
            pickupPlace = place.place
        case let expiry as ListingExpirySet:
            expiresAt = expiry.expiresAt
            if expiry.renewed { lastRenewedAt = expiry.setAt }
        case let promised as ListingPromised:
            promisedTo = promised.requesterId
        case let changed as ListingStatusChanged:
            if changed.status == .hidden { statusBeforeHidden = storedStatus }
            if changed.status == .available || changed.status == .withdrawn { promisedTo = nil }
            storedStatus = changed.status
        default:
            break
        }
    }
}
