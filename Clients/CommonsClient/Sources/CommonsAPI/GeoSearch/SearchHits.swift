import Foundation

/// A distance unit of searches and alerts.
public enum DistanceUnit: String, Codable, Sendable { case km, mi }

/// A listing found by a search: public facts on its approximate public point.
public struct ListingHit: Codable, Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var description: String
    public var category: ListingCategory
    public var free: Bool
    public var price: Money?
    /// The first photo, with where each size is served (`image.small` for a list or a pin);
    /// nil for a listing without photos.
    public var image: ImageLinks?
    /// When it can be picked up; nil only for a listing posted before geo-search kept pickup
    /// times, until its read model is replayed.
    public var pickupTimes: PickupTimes?
    public var status: ListingStatus
    /// The public point (never the exact pickup place).
    public var lat: Double
    public var lon: Double
    /// From the search's centre (nearby searches).
    public var distanceMeters: Double?
    public var postedAt: Date
    public var directionsURL: URL
}

/// An organisation found by a search.
public struct OrganizationHit: Codable, Sendable, Equatable {
    public var id: UUID
    public var slug: String
    public var name: String
    public var kind: OrganizationKind
    public var tags: [String]
    public var acceptedCategories: [ListingCategory]
    public var address: String?
    public var lat: Double
    public var lon: Double
    public var distanceMeters: Double?
    public var directionsURL: URL

    public init(
        id: UUID, slug: String, name: String, kind: OrganizationKind, tags: [String], acceptedCategories: [ListingCategory],
        address: String?, lat: Double, lon: Double, distanceMeters: Double?, directionsURL: URL
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.kind = kind
        self.tags = tags
        self.acceptedCategories = acceptedCategories
        self.address = address
        self.lat = lat
        self.lon = lon
        self.distanceMeters = distanceMeters
        self.directionsURL = directionsURL
    }
}
