import Foundation

/// A donation, as its donor sees it.
public struct Donation: Codable, Sendable, Equatable {
    public var id: UUID
    public var organization: OrganizationRef
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var visibility: DonorVisibility
    public var message: String?
    public var recurringId: UUID?
    /// `YYYY-MM` of a monthly donation's run.
    public var month: String?
    public var donatedAt: Date

    public init(
        id: UUID, organization: OrganizationRef, amountMinor: Int, currency: CurrencyCode, visibility: String, message: String?,
        recurringId: UUID?, month: String?, donatedAt: Date
    ) {
        self.id = id
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.visibility = DonorVisibility(rawValue: visibility)
        self.message = message
        self.recurringId = recurringId
        self.month = month
        self.donatedAt = donatedAt
    }
}

/// `POST /v1/donations`.
public struct NewDonation: Codable, Sendable, Equatable {
    /// The organisation's id or slug.
    public var organization: String
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var message: String?
    /// `public` when not given.
    public var visibility: DonorVisibility?

    public init(organization: String, amountMinor: Int, currency: CurrencyCode, message: String? = nil, visibility: DonorVisibility? = nil) {
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.message = message
        self.visibility = visibility
    }
}

/// What a donation answers: the donation and the wallet's balance after it.
public struct MadeDonation: Codable, Sendable, Equatable {
    public var donation: Donation
    public var balanceMinor: Int

    public init(donation: Donation, balanceMinor: Int) {
        self.donation = donation
        self.balanceMinor = balanceMinor
    }
}

/// A receipt for a donation: `GET /v1/donations/{id}/receipt`.
public struct Receipt: Codable, Sendable, Equatable {
    public var receiptNumber: String
    public var donationId: UUID
    public var donorAccountId: UUID
    public var organization: OrganizationRef
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var donatedAt: Date
    public var statement: String
    /// True when the server runs the simulated card processor: no money was received.
    public var simulated: Bool?

    public init(
        receiptNumber: String, donationId: UUID, donorAccountId: UUID, organization: OrganizationRef, amountMinor: Int,
        currency: CurrencyCode, donatedAt: Date, statement: String, simulated: Bool?
    ) {
        self.receiptNumber = receiptNumber
        self.donationId = donationId
        self.donorAccountId = donorAccountId
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.donatedAt = donatedAt
        self.statement = statement
        self.simulated = simulated
    }
}
