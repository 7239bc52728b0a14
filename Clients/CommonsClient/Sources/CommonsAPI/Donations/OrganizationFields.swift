import Foundation

/// The fields of an organisation, for registering one (`POST /v1/organizations`: `name`,
/// `slug`, `kind`, `mission`, `currency` and `minimumDonationMinor` required) and for
/// changing one (`PATCH /v1/organizations/{id}`: what is absent stays as it is).
public struct OrganizationFields: Codable, Sendable, Equatable {
    public var name: String?
    public var slug: String?
    public var kind: OrganizationKind?
    public var mission: String?
    public var description: String?
    public var homepage: String?
    public var logoImageId: UUID?
    public var categories: [String]?
    public var tags: [String]?
    public var rating: OrganizationRating?
    public var currency: CurrencyCode?
    public var minimumDonationMinor: Int?
    public var suggestedAmountsMinor: [Int]?
    public var address: String?
    public var location: Coordinate?
    public var openingHours: [OpeningHours]?
    /// The kinds of listed items a donation centre takes.
    public var acceptedCategories: [ListingCategory]?

    public init(
        name: String? = nil, slug: String? = nil, kind: String? = nil, mission: String? = nil, description: String? = nil,
        homepage: String? = nil, logoImageId: UUID? = nil, categories: [String]? = nil, tags: [String]? = nil,
        rating: OrganizationRating? = nil, currency: CurrencyCode? = nil, minimumDonationMinor: Int? = nil,
        suggestedAmountsMinor: [Int]? = nil, address: String? = nil, location: Coordinate? = nil,
        openingHours: [OpeningHours]? = nil, acceptedCategories: [ListingCategory]? = nil
    ) {
        self.name = name
        self.slug = slug
        self.kind = kind.map(OrganizationKind.init(rawValue:))
        self.mission = mission
        self.description = description
        self.homepage = homepage
        self.logoImageId = logoImageId
        self.categories = categories
        self.tags = tags
        self.rating = rating
        self.currency = currency
        self.minimumDonationMinor = minimumDonationMinor
        self.suggestedAmountsMinor = suggestedAmountsMinor
        self.address = address
        self.location = location
        self.openingHours = openingHours
        self.acceptedCategories = acceptedCategories
    }
}

/// `POST /v1/organizations/{id}/impact-estimates` (admins): what one outcome costs.
public struct NewImpactEstimate: Codable, Sendable, Equatable {
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: CurrencyCode
    public var source: String
    public var sourceURL: String?
    /// `YYYY-MM-DD`.
    public var publishedOn: String

    public init(
        outcomeUnit: String, costPerOutcomeMinor: Int, currency: CurrencyCode, source: String, sourceURL: String? = nil,
        publishedOn: String
    ) {
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
    }
}
