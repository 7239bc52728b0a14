import EventLog
import Foundation

// What `OrganizationRegistered` and `OrganizationUpdated` do not carry: the profile a donor
// reads, verification, and the versioned impact estimates. Written by the donations service
// in the organisation's stream, `organization-<organizationId>`, beside those two.

/// The profile of an organisation; every field is the new whole value. Appended with
/// `OrganizationRegistered` and with every `OrganizationUpdated` that changes it.
public struct OrganizationProfileChanged: EventContract, Equatable {
    public static let eventType = "OrganizationProfileChanged"
    public var organizationId: UUID
    public var mission: String
    public var description: String
    public var homepage: String?
    public var logoImageId: UUID?
    /// Broad causes, e.g. `global-health`.
    public var categories: [String]
    public var rating: OrganizationRating?
    /// The currency it takes donations in (ISO 4217).
    public var currency: String
    /// The smallest donation it takes, in minor units of `currency`.
    public var minimumDonationMinor: Int
    /// Amounts a client may offer as buttons, in minor units of `currency`.
    public var suggestedAmountsMinor: [Int]
    /// For donation centres; empty for a charity without a place.
    public var openingHours: [OpeningHours]

    public init(
        organizationId: UUID, mission: String, description: String, homepage: String?, logoImageId: UUID?,
        categories: [String], rating: OrganizationRating?, currency: String, minimumDonationMinor: Int,
        suggestedAmountsMinor: [Int], openingHours: [OpeningHours]
    ) {
        self.organizationId = organizationId
        self.mission = mission
        self.description = description
        self.homepage = homepage
        self.logoImageId = logoImageId
        self.categories = categories
        self.rating = rating
        self.currency = currency
        self.minimumDonationMinor = minimumDonationMinor
        self.suggestedAmountsMinor = suggestedAmountsMinor
        self.openingHours = openingHours
    }
}

/// An administrator verified an organisation, or withdrew the verification. Only verified
/// organisations take donations.
public struct OrganizationVerificationChanged: EventContract, Equatable {
    public static let eventType = "OrganizationVerificationChanged"
    public var organizationId: UUID
    public var verified: Bool
    public var at: Date

    public init(organizationId: UUID, verified: Bool, at: Date) {
        self.organizationId = organizationId
        self.verified = verified
        self.at = at
    }
}

/// A published estimate of what one outcome costs at an organisation, e.g. GiveWell's cost per
/// life saved. A newer estimate is a new event; earlier ones stay, so the impact of a past
/// donation can be told at the estimate in force when it was made.
public struct ImpactEstimateAdded: EventContract, Equatable {
    public static let eventType = "ImpactEstimateAdded"
    public var organizationId: UUID
    public var estimateId: UUID
    /// What one outcome is, e.g. `life saved` or `child protected from malaria for a year`.
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: String
    /// Who published the estimate, and where.
    public var source: String
    public var sourceURL: String?
    /// When the source published it, `YYYY-MM-DD` (or `YYYY-MM`, `YYYY` when only that is known).
    public var publishedOn: String
    public var addedAt: Date

    public init(
        organizationId: UUID, estimateId: UUID, outcomeUnit: String, costPerOutcomeMinor: Int, currency: String,
        source: String, sourceURL: String?, publishedOn: String, addedAt: Date
    ) {
        self.organizationId = organizationId
        self.estimateId = estimateId
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
        self.addedAt = addedAt
    }
}

/// Reserves an organisation's slug for it, so two organisations never share one.
/// Stream: `organizationslug-<slug>`, appended with `.noStream`.
public struct OrganizationSlugReserved: EventContract, Equatable {
    public static let eventType = "OrganizationSlugReserved"
    public var organizationId: UUID
    public var slug: String

    public init(organizationId: UUID, slug: String) {
        self.organizationId = organizationId
        self.slug = slug
    }
}
