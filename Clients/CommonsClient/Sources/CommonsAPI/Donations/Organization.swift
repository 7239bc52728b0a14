import Foundation

/// A charity or donation centre, as `GET /v1/organizations/{id}` answers it.
public struct Organization: Codable, Sendable, Equatable {
    public var id: UUID
    public var slug: String
    public var name: String
    public var kind: OrganizationKind
    public var mission: String
    public var description: String
    public var homepage: String?
    public var logoImageId: UUID?
    public var categories: [String]
    public var tags: [String]
    public var rating: OrganizationRating?
    public var verified: Bool
    public var currency: CurrencyCode
    public var minimumDonationMinor: Int
    public var suggestedAmountsMinor: [Int]
    public var address: String?
    public var location: Coordinate?
    /// Apple Maps directions to the location, when there is one.
    public var directionsURL: String?
    public var openingHours: [OpeningHours]
    /// The kinds of listed items a donation centre takes.
    public var acceptedCategories: [ListingCategory]
    /// Newest first; the first is in force.
    public var impactEstimates: [ImpactEstimate]
    /// The aggregate's version: the `ETag` and `If-Match` of a change.
    public var version: Int64

    public init(
        id: UUID, slug: String, name: String, kind: String, mission: String, description: String, homepage: String?, logoImageId: UUID?,
        categories: [String], tags: [String], rating: OrganizationRating?, verified: Bool, currency: CurrencyCode, minimumDonationMinor: Int,
        suggestedAmountsMinor: [Int], address: String?, location: Coordinate?, directionsURL: String?, openingHours: [OpeningHours],
        acceptedCategories: [ListingCategory], impactEstimates: [ImpactEstimate], version: Int64
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.kind = OrganizationKind(rawValue: kind)
        self.mission = mission
        self.description = description
        self.homepage = homepage
        self.logoImageId = logoImageId
        self.categories = categories
        self.tags = tags
        self.rating = rating
        self.verified = verified
        self.currency = currency
        self.minimumDonationMinor = minimumDonationMinor
        self.suggestedAmountsMinor = suggestedAmountsMinor
        self.address = address
        self.location = location
        self.directionsURL = directionsURL
        self.openingHours = openingHours
        self.acceptedCategories = acceptedCategories
        self.impactEstimates = impactEstimates
        self.version = version
    }
}

/// A short reference to an organisation inside other resources.
public struct OrganizationRef: Codable, Sendable, Equatable {
    public var id: UUID
    public var slug: String
    public var name: String

    public init(id: UUID, slug: String, name: String) {
        self.id = id
        self.slug = slug
        self.name = name
    }
}
