import Contracts
import Foundation
import Geo
import ListingsDomain

/// A listing as the API shows it. The exact pickup point, street address and directions are
/// present only for the owner and the requester the listing is promised to.
struct ListingView: Encodable, Sendable {
    var id: UUID
    var ownerId: UUID
    var title: String
    var description: String
    var category: String
    var condition: String
    /// Absent for a free item.
    var price: Money?
    var free: Bool
    var pickupTimes: PickupTimes
    var imageIds: [UUID]
    /// The same photos, with the address of each size.
    var images: [ImageLinks]
    var status: ListingStatus
    /// The approximate public point (within 500 m of the pickup point, see `PublicLocation`).
    var approximateLocation: Coordinate
    var postedAt: Date
    var expiresAt: Date?
    var version: Int64
    // Private: owner and promised requester only.
    var pickupLocation: Coordinate?
    var streetAddress: String?
    var directionsURL: String?
    /// Owner only.
    var promisedTo: UUID?

    /// The view of `state` at `now` for a reader who sees `place` (nil: the public view).
    init(_ state: ListingState, place: PickupPlace?, showPromise: Bool, now: Date) {
        id = state.id ?? UUID()
        ownerId = state.ownerId ?? UUID()
        title = state.title
        description = state.description
        category = state.category
        condition = state.condition
        price = state.price
        free = state.price == nil
        pickupTimes = state.pickupTimes
        imageIds = state.imageIds
        images = state.imageIds.map(ImageLinks.init)
        status = state.status(at: now)
        approximateLocation = state.publicLocation ?? Coordinate(lat: 0, lon: 0)
        postedAt = state.postedAt ?? now
        expiresAt = state.expiresAt
        version = state.version
        if let place {
            pickupLocation = place.location
            streetAddress = place.streetAddress
            directionsURL = GeoCoordinate(lat: place.location.lat, lon: place.location.lon)?.directionsLink
        }
        if showPromise { promisedTo = state.promisedTo }
    }

    /// A feed row: public data only.
    init(row: FeedRow, now: Date) {
        id = row.id
        ownerId = row.ownerId
        title = row.title
        description = row.description
        category = row.category
        condition = row.condition
        price = row.price
        free = row.price == nil
        pickupTimes = row.pickupTimes
        imageIds = row.imageIds
        images = row.imageIds.map(ImageLinks.init)
        status = row.status == .available && (row.expiresAt.map { now >= $0 } ?? false) ? .expired : row.status
        approximateLocation = row.location
        postedAt = row.postedAt
        expiresAt = row.expiresAt
        version = row.version
    }
}
