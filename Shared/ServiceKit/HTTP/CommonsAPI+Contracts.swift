import CommonsAPI
import Contracts
import Foundation

// The value types that events and the API's wire shapes both hold, from the first to the
// second. Events keep their own types: a shipped event never changes with the API.

extension CommonsAPI.Money {
    /// The amount an event or the read model holds.
    public init(_ money: Contracts.Money) {
        self.init(amountMinor: money.amountMinor, currency: CurrencyCode(rawValue: money.currency))
    }
}

extension CommonsAPI.Coordinate {
    /// The point an event or the read model holds.
    public init(_ point: Contracts.Coordinate) {
        self.init(lat: point.lat, lon: point.lon)
    }
}
