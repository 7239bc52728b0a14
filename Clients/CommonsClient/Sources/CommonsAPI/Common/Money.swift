import Foundation

/// An amount of money: integer minor units (cents) and an ISO 4217 currency code.
public struct Money: Codable, Sendable, Hashable {
    public var amountMinor: Int
    public var currency: CurrencyCode

    public init(amountMinor: Int, currency: CurrencyCode) {
        self.amountMinor = amountMinor
        self.currency = currency
    }
}
