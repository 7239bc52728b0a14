import Foundation

/// The wire shape of a listing: the one Swift type that the listings service encodes and
/// the SDK decodes. The service writes it with a fast JSON writer that a test holds equal
/// to this type's `Encodable`, and its OpenAPI schema is checked against this type.
///
/// `pickupLocation`, `streetAddress` and `directionsURL` are present only for its
/// owner and for the requester it is promised to; `promisedTo` only for its owner.
public struct Listing: Codable, Sendable, Equatable {
    public var id: UUID
    public var ownerId: UUID
    public var title: String
    public var description: String
    public var category: ListingCategory
    public var condition: ItemCondition
    public var price: Money?
    public var free: Bool
    public var pickupTimes: PickupTimes
    public var imageIds: [UUID]
    /// The same photos, with where each size is served.
    public var images: [ImageLinks]
    public var status: ListingStatus
    /// Within 500 m of the pickup place.
    public var approximateLocation: Coordinate
    public var postedAt: Date
    public var expiresAt: Date?
    /// The aggregate's version: the `ETag` and `If-Match` of an edit.
    public var version: Int64
    public var pickupLocation: Coordinate?
    public var streetAddress: String?
    public var directionsURL: String?
    public var promisedTo: UUID?

    public init(
        id: UUID, ownerId: UUID, title: String, description: String, category: ListingCategory, condition: ItemCondition, price: Money?,
        free: Bool, pickupTimes: PickupTimes, imageIds: [UUID], images: [ImageLinks], status: ListingStatus,
        approximateLocation: Coordinate, postedAt: Date, expiresAt: Date?, version: Int64, pickupLocation: Coordinate? = nil,
        streetAddress: String? = nil, directionsURL: String? = nil, promisedTo: UUID? = nil
    ) {
        self.id = id
        self.ownerId = ownerId
        self.title = title
        self.description = description
        self.category = category
        self.condition = condition
        self.price = price
        self.free = free
        self.pickupTimes = pickupTimes
        self.imageIds = imageIds
        self.images = images
        self.status = status
        self.approximateLocation = approximateLocation
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.version = version
        self.pickupLocation = pickupLocation
        self.streetAddress = streetAddress
        self.directionsURL = directionsURL
        self.promisedTo = promisedTo
    }
}
