import Foundation

/// A monthly donation.
public struct RecurringDonation: Codable, Sendable, Equatable {
    public var id: UUID
    public var organizationId: UUID
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var visibility: DonorVisibility
    /// `YYYY-MM`.
    public var startMonth: String
    public var status: String
    public var lastRunMonth: String?
    public var lastOutcome: String?

    public init(
        id: UUID, organizationId: UUID, amountMinor: Int, currency: CurrencyCode, visibility: String, startMonth: String, status: String,
        lastRunMonth: String?, lastOutcome: String?
    ) {
        self.id = id
        self.organizationId = organizationId
        self.amountMinor = amountMinor
        self.currency = currency
        self.visibility = DonorVisibility(rawValue: visibility)
        self.startMonth = startMonth
        self.status = status
        self.lastRunMonth = lastRunMonth
        self.lastOutcome = lastOutcome
    }
}

/// `POST /v1/donations/recurring`: a monthly donation, the first made this month.
public struct NewRecurringDonation: Codable, Sendable, Equatable {
    /// The organisation's id or slug.
    public var organization: String
    public var amountMinor: Int
    public var currency: CurrencyCode
    /// `public` when not given.
    public var visibility: DonorVisibility?

    public init(organization: String, amountMinor: Int, currency: CurrencyCode, visibility: DonorVisibility? = nil) {
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.visibility = visibility
    }
}
