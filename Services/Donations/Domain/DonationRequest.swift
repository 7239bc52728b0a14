import Contracts
import Foundation

/// A donation as a donor asks for it, before it is checked against the organisation and the wallet.
public struct DonationRequest: Sendable, Equatable {
    /// The organisation's id or slug.
    public var organization: String
    public var amountMinor: Int
    public var currency: String
    public var message: String?
    public var visibility: DonationVisibility

    public init(organization: String, amountMinor: Int, currency: String, message: String?, visibility: DonationVisibility) {
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.message = message
        self.visibility = visibility
    }

    /// The request with its message trimmed (nil when blank), or every bad field.
    public func validated() throws(DonationsError) -> DonationRequest {
        var problems = FieldProblems()
        var request = self
        request.organization = problems.text(organization, field: "organization", length: 1...80)
        problems.require((1...Amounts.largestMinor).contains(amountMinor), "must be a positive number of minor units", for: "amountMinor")
        problems.currency(currency)
        if let message {
            let trimmed = problems.text(message, field: "message", length: 0...500)
            request.message = trimmed.isEmpty ? nil : trimmed
        }
        try problems.check()
        return request
    }

    /// The donation from `wallet` to `organization`: refused when the organisation does not
    /// take it (422) or the wallet cannot pay it (409). `estimateId` is the estimate in force now.
    public static func decide(
        donationId: UUID, accountId: UUID, amountMinor: Int, currency: String, visibility: DonationVisibility, message: Sealed?,
        organization: OrganizationState, wallet: WalletState, recurring: (id: UUID, month: Month)? = nil, now: Date
    ) throws(DonationsError) -> DonationMade {
        try organization.accepts(amountMinor: amountMinor, currency: currency)
        try wallet.canPay(amountMinor: amountMinor, currency: currency)
        guard let organizationId = organization.id else { throw .organizationNotFound }
        return DonationMade(
            donationId: donationId, accountId: accountId, organizationId: organizationId, amountMinor: amountMinor,
            currency: currency, visibility: visibility, message: message, recurringId: recurring?.id,
            month: recurring?.month.description, estimateId: organization.estimate(at: now)?.estimateId, at: now)
    }
}

/// A top-up as a donor asks for it.
public struct TopUpRequest: Sendable, Equatable {
    /// The most one top-up may add, in minor units.
    public static let largestMinor = 1_000_000

    public var amountMinor: Int
    public var currency: String
    public var cardNumber: String

    public init(amountMinor: Int, currency: String, cardNumber: String) {
        self.amountMinor = amountMinor
        self.currency = currency
        self.cardNumber = cardNumber
    }

    /// The checked card, or every bad field.
    public func validated() throws(DonationsError) -> CardNumber {
        var problems = FieldProblems()
        problems.require((100...Self.largestMinor).contains(amountMinor), "must be from 100 to \(Self.largestMinor) minor units", for: "amountMinor")
        problems.currency(currency)
        let card = CardNumber(cardNumber)
        if card == nil {
            problems.add(
                cardNumber.count > CardNumber.maximumLength
                    ? "must have at most \(CardNumber.maximumLength) characters" : "is not a valid card number",
                to: "cardNumber")
        }
        try problems.check()
        return card!
    }
}
