import EventLog
import Foundation

// Events of the `donations` service about money: a wallet per account, donations, monthly
// donations and shared donations. Amounts are integer minor units of an ISO 4217 currency.
// What a person writes (messages, captions) and card details are sealed with their
// personal-data key (see `Sealed`), so deleting the account makes them unreadable.

/// Whether a donation may be shown with the donor's account (supporters, feed) or not at all.
public enum DonationVisibility: String, Codable, Sendable, CaseIterable {
    case `public`, anonymous
}

/// What the card processor said about a top-up, sealed into `WalletToppedUp`.
public struct CardCharge: Codable, Sendable, Hashable {
    public var brand: String
    public var last4: String
    /// The processor's reference of the charge.
    public var reference: String

    public init(brand: String, last4: String, reference: String) {
        self.brand = brand
        self.last4 = last4
        self.reference = reference
    }
}

/// Money came into a wallet from a card charge. Stream: `wallet-<accountId>`.
public struct WalletToppedUp: EventContract, Equatable {
    public static let eventType = "WalletToppedUp"
    public var accountId: UUID
    public var topUpId: UUID
    public var amountMinor: Int
    public var currency: String
    /// `CardCharge`, sealed.
    public var charge: Sealed
    public var at: Date

    public init(accountId: UUID, topUpId: UUID, amountMinor: Int, currency: String, charge: Sealed, at: Date) {
        self.accountId = accountId
        self.topUpId = topUpId
        self.amountMinor = amountMinor
        self.currency = currency
        self.charge = charge
        self.at = at
    }
}

/// Money went from a wallet to an organisation. Stream: `wallet-<accountId>`; appended at
/// the version its balance was checked at, so concurrent donations never overdraw.
public struct DonationMade: EventContract, Equatable {
    public static let eventType = "DonationMade"
    public var donationId: UUID
    public var accountId: UUID
    public var organizationId: UUID
    public var amountMinor: Int
    public var currency: String
    public var visibility: DonationVisibility
    /// The donor's message to the organisation (a `String`), sealed.
    public var message: Sealed?
    /// The monthly donation it was made for, and the month (`YYYY-MM`).
    public var recurringId: UUID?
    public var month: String?
    /// The organisation's impact estimate in force when it was made.
    public var estimateId: UUID?
    public var at: Date

    public init(
        donationId: UUID, accountId: UUID, organizationId: UUID, amountMinor: Int, currency: String,
        visibility: DonationVisibility, message: Sealed?, recurringId: UUID?, month: String?, estimateId: UUID?, at: Date
    ) {
        self.donationId = donationId
        self.accountId = accountId
        self.organizationId = organizationId
        self.amountMinor = amountMinor
        self.currency = currency
        self.visibility = visibility
        self.message = message
        self.recurringId = recurringId
        self.month = month
        self.estimateId = estimateId
        self.at = at
    }
}

/// A monthly donation was set up; the first is made in `startMonth`. Stream: `recurring-<recurringId>`.
public struct RecurringDonationCreated: EventContract, Equatable {
    public static let eventType = "RecurringDonationCreated"
    public var recurringId: UUID
    public var accountId: UUID
    public var organizationId: UUID
    public var amountMinor: Int
    public var currency: String
    public var visibility: DonationVisibility
    /// `YYYY-MM`.
    public var startMonth: String
    public var at: Date

    public init(
        recurringId: UUID, accountId: UUID, organizationId: UUID, amountMinor: Int, currency: String,
        visibility: DonationVisibility, startMonth: String, at: Date
    ) {
        self.recurringId = recurringId
        self.accountId = accountId
        self.organizationId = organizationId
        self.amountMinor = amountMinor
        self.currency = currency
        self.visibility = visibility
        self.startMonth = startMonth
        self.at = at
    }
}

/// A monthly donation's amount changed, from the next donation on. Stream: `recurring-<recurringId>`.
public struct RecurringDonationAmountChanged: EventContract, Equatable {
    public static let eventType = "RecurringDonationAmountChanged"
    public var recurringId: UUID
    public var amountMinor: Int
    public var at: Date

    public init(recurringId: UUID, amountMinor: Int, at: Date) {
        self.recurringId = recurringId
        self.amountMinor = amountMinor
        self.at = at
    }
}

/// A monthly donation was cancelled; no more donations are made for it. Stream: `recurring-<recurringId>`.
public struct RecurringDonationCancelled: EventContract, Equatable {
    public static let eventType = "RecurringDonationCancelled"
    public var recurringId: UUID
    public var at: Date

    public init(recurringId: UUID, at: Date) {
        self.recurringId = recurringId
        self.at = at
    }
}

/// The scheduler's one run of a monthly donation for one month. Stream:
/// `recurringrun-<recurringId>-<YYYY-MM>`, appended with `.noStream`: at most one per month.
public struct RecurringDonationRun: EventContract, Equatable {
    public static let eventType = "RecurringDonationRun"
    public enum Outcome: String, Codable, Sendable {
        case donated
        case insufficientFunds = "insufficient-funds"
        /// The organisation is no longer verified, or does not take this amount.
        case refused
    }

    public var recurringId: UUID
    public var month: String
    public var outcome: Outcome
    /// The donation, when one was made.
    public var donationId: UUID?
    public var at: Date

    public init(recurringId: UUID, month: String, outcome: Outcome, donationId: UUID?, at: Date) {
        self.recurringId = recurringId
        self.month = month
        self.outcome = outcome
        self.donationId = donationId
        self.at = at
    }
}

/// A donor shared a public donation in the feed. Stream: `donationpost-<postId>`.
public struct DonationShared: EventContract, Equatable {
    public static let eventType = "DonationShared"
    public var postId: UUID
    public var donationId: UUID
    public var accountId: UUID
    public var organizationId: UUID
    /// The caption (a `String`), sealed.
    public var caption: Sealed
    public var imageId: UUID?
    public var at: Date

    public init(postId: UUID, donationId: UUID, accountId: UUID, organizationId: UUID, caption: Sealed, imageId: UUID?, at: Date) {
        self.postId = postId
        self.donationId = donationId
        self.accountId = accountId
        self.organizationId = organizationId
        self.caption = caption
        self.imageId = imageId
        self.at = at
    }
}
