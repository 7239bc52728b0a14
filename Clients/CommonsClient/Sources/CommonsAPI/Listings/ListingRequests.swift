import Foundation

/// `POST /v1/listings`: a free item when `price` is nil.
public struct NewListing: Codable, Sendable, Equatable {
    public var title: String
    public var description: String?
    public var category: ListingCategory
    public var condition: ItemCondition
    public var price: Money?
    public var pickupTimes: PickupTimes?
    /// The exact place; others see only an approximate point until the item is promised to them.
    public var pickupLocation: Coordinate
    public var streetAddress: String?
    /// Ids of uploaded images (`POST /v1/images`).
    public var imageIds: [UUID]

    public init(
        title: String, description: String? = nil, category: ListingCategory, condition: ItemCondition, price: Money? = nil,
        pickupTimes: PickupTimes? = nil, pickupLocation: Coordinate, streetAddress: String? = nil, imageIds: [UUID] = []
    ) {
        self.title = title
        self.description = description
        self.category = category
        self.condition = condition
        self.price = price
        self.pickupTimes = pickupTimes
        self.pickupLocation = pickupLocation
        self.streetAddress = streetAddress
        self.imageIds = imageIds
    }
}

/// `PATCH /v1/listings/{id}`: nil keeps a field; `.clear` clears description, price (free)
/// or street address.
public struct ListingChange: Codable, Sendable, Equatable {
    public var title: String?
    public var description: PatchValue<String>?
    public var category: ListingCategory?
    public var condition: ItemCondition?
    public var price: PatchValue<Money>?
    public var pickupTimes: PickupTimes?
    public var pickupLocation: Coordinate?
    public var streetAddress: PatchValue<String>?
    public var imageIds: [UUID]?

    public init(
        title: String? = nil, description: PatchValue<String>? = nil, category: ListingCategory? = nil, condition: ItemCondition? = nil,
        price: PatchValue<Money>? = nil, pickupTimes: PickupTimes? = nil, pickupLocation: Coordinate? = nil,
        streetAddress: PatchValue<String>? = nil, imageIds: [UUID]? = nil
    ) {
        self.title = title
        self.description = description
        self.category = category
        self.condition = condition
        self.price = price
        self.pickupTimes = pickupTimes
        self.pickupLocation = pickupLocation
        self.streetAddress = streetAddress
        self.imageIds = imageIds
    }
}
