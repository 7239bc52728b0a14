import CommonsAPI
import Contracts
import Foundation

// The value types that events and the API's wire shapes both hold in different forms, from
// the first to the second (the shapes they hold alike are one type: see Contracts' `APIShapes`).

extension CommonsAPI.Money {
    /// The amount an event or the read model holds.
    public init(_ money: Contracts.Money) {
        self.init(amountMinor: money.amountMinor, currency: CurrencyCode(rawValue: money.currency))
    }
}
