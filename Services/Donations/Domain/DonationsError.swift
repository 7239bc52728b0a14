import Foundation

/// Why a donations command was refused. Knows nothing of HTTP; the service maps it.
public enum DonationsError: Error, Equatable, Sendable {
    /// Fields are invalid; every bad field is listed.
    case invalid([String: [String]])
    case organizationNotFound
    case slugTaken
    /// The organisation is not verified and so takes no donations.
    case organizationNotVerified
    case belowMinimum(minimumMinor: Int, currency: String)
    case wrongCurrency(expected: String)
    /// The wallet holds less than the donation in that currency.
    case insufficientFunds(balanceMinor: Int, currency: String)
    case cardDeclined(reason: String)
    /// The deployment has no card processor (`COMMONS_PAYMENTS` unset).
    case paymentsNotConfigured
    case donationNotFound
    case recurringNotFound
    case recurringCancelled
    /// Only public donations can be shared.
    case anonymousDonation
}
