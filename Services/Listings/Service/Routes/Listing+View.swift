import CommonsAPI
import Contracts
import Foundation
import Geo
import ListingsDomain
import PhotoCodec

// A listing as the API shows it is CommonsAPI's `Listing`, the type the SDK decodes. The
// exact pickup point, street address and directions are present only for the owner and the
// requester the listing is promised to; `promisedTo` only for the owner.
extension CommonsAPI.Listing {
    /// The view of `state` at `now` for a reader who sees `place` (nil: the public view).
    init(_ state: ListingState, place: PickupPlace?, showPromise: Bool, now: Date) {
        self.init(
            id: state.id ?? UUID(), ownerId: state.ownerId ?? UUID(), title: state.title, description: state.description,
            category: CommonsAPI.ListingCategory(rawValue: state.category), condition: ItemCondition(rawValue: state.condition),
            price: state.price.map(CommonsAPI.Money.init), free: state.price == nil, pickupTimes: state.pickupTimes,
            imageIds: state.imageIds, images: state.imageIds.map(ImageLinks.init),
            status: CommonsAPI.ListingStatus(rawValue: state.status(at: now).rawValue),
            approximateLocation: state.publicLocation ?? Coordinate(lat: 0, lon: 0),
            postedAt: state.postedAt ?? now, expiresAt: state.expiresAt, version: state.version)
        if let place {
            pickupLocation = place.location
            streetAddress = place.streetAddress
            directionsURL = GeoCoordinate(lat: place.location.lat, lon: place.location.lon)?.directionsLink
        }
        if showPromise { promisedTo = state.promisedTo }
    }

    /// A feed row: public data only.
    init(row: FeedRow, now: Date) {
        let status: Contracts.ListingStatus = row.status == .available && (row.expiresAt.map { now >= $0 } ?? false) ? .expired : row.status
        self.init(
            id: row.id, ownerId: row.ownerId, title: row.title, description: row.description,
            category: CommonsAPI.ListingCategory(rawValue: row.category), condition: ItemCondition(rawValue: row.condition),
            price: row.price.map(CommonsAPI.Money.init), free: row.price == nil, pickupTimes: row.pickupTimes,
            imageIds: row.imageIds, images: row.imageIds.map(ImageLinks.init), status: CommonsAPI.ListingStatus(rawValue: status.rawValue),
            approximateLocation: row.location, postedAt: row.postedAt, expiresAt: row.expiresAt, version: row.version)
    }
}
