import Foundation

/// An impact estimate: what one outcome costs, by a source.
public struct ImpactEstimate: Codable, Sendable, Equatable {
    public var id: UUID
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: CurrencyCode
    public var source: String
    public var sourceURL: String?
    /// `YYYY-MM-DD`.
    public var publishedOn: String
    public var addedAt: Date

    public init(
        id: UUID, outcomeUnit: String, costPerOutcomeMinor: Int, currency: CurrencyCode, source: String, sourceURL: String?,
        publishedOn: String, addedAt: Date
    ) {
        self.id = id
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
        self.addedAt = addedAt
    }
}

/// What my donations to one organisation achieved: `GET /v1/impact`.
public struct Impact: Codable, Sendable, Equatable {
    /// Outcomes at one set of estimates.
    public struct Achieved: Codable, Sendable, Equatable {
        public var outcomes: Double
        public var estimates: [ImpactEstimate]

        public init(outcomes: Double, estimates: [ImpactEstimate]) {
            self.outcomes = outcomes
            self.estimates = estimates
        }
    }

    public var organization: OrganizationRef
    public var currency: CurrencyCode
    public var donatedMinor: Int
    public var donations: Int
    public var outcomeUnit: String?
    /// Each donation at the estimate in force when it was made (donations made before any
    /// estimate, or in another currency, count for nothing here).
    public var atDonation: Achieved?
    /// All of them at today's estimate.
    public var today: Achieved?

    public init(
        organization: OrganizationRef, currency: CurrencyCode, donatedMinor: Int, donations: Int, outcomeUnit: String?,
        atDonation: Achieved? = nil, today: Achieved? = nil
    ) {
        self.organization = organization
        self.currency = currency
        self.donatedMinor = donatedMinor
        self.donations = donations
        self.outcomeUnit = outcomeUnit
        self.atDonation = atDonation
        self.today = today
    }
}
