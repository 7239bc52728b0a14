import Foundation

/// `POST /v1/alerts`: new listings within `radius` of a point, optionally of a category and
/// with keywords.
public struct NewAlert: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    public var radius: Double?
    public var unit: DistanceUnit?
    public var category: ListingCategory?
    public var q: String?
    public var name: String?

    public init(
        lat: Double, lon: Double, radius: Double? = nil, unit: DistanceUnit? = nil, category: ListingCategory? = nil, q: String? = nil,
        name: String? = nil
    ) {
        self.lat = lat
        self.lon = lon
        self.radius = radius
        self.unit = unit
        self.category = category
        self.q = q
        self.name = name
    }
}

/// A saved search.
public struct Alert: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String?
    public var lat: Double
    public var lon: Double
    /// In `unit`.
    public var radius: Double
    public var unit: String
    public var category: ListingCategory?
    public var q: String?
    public var createdAt: Date

    public init(
        id: UUID, name: String?, lat: Double, lon: Double, radius: Double, unit: String, category: ListingCategory?, q: String?,
        createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.lat = lat
        self.lon = lon
        self.radius = radius
        self.unit = unit
        self.category = category
        self.q = q
        self.createdAt = createdAt
    }
}

/// A listing that one or more of my alerts matched.
public struct AlertMatch: Codable, Sendable, Equatable {
    /// The position the listing was posted at; also the read marker.
    public var id: String
    public var alertIds: [UUID]
    public var listing: ListingHit
}

/// `GET /v1/alerts/matches`: what is new since my last read; reading moves the marker.
public struct AlertMatches: Codable, Sendable, Equatable {
    public var items: [AlertMatch]
    /// The new read marker (nil when nothing was new).
    public var readUpTo: String?
    public var hasMore: Bool
}
