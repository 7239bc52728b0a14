import CommonsAPI
import Foundation

/// What a list adds up to (`CommonsAPI.ListTotals`): calories, and the price of every
/// priced item at its cheapest offer, per currency.
extension ListTotals {
    /// One item as the totals see it.
    public struct Line: Sendable {
        public var quantity: Int
        public var caloriesPerUnit: Int?
        public var cheapest: Money?

        public init(quantity: Int, caloriesPerUnit: Int?, cheapest: Money?) {
            self.quantity = quantity
            self.caloriesPerUnit = caloriesPerUnit
            self.cheapest = cheapest
        }
    }

    /// The totals of `lines`. A sum too large for `Int` stays at `Int.max` (or `Int.min`)
    /// rather than trapping: the catalogue bounds neither prices nor calories from above.
    public static func of(_ lines: [Line]) -> ListTotals {
        var byCurrency: [CurrencyCode: Int] = [:]
        var unpriced = 0
        var calories = 0
        for line in lines {
            calories = calories.saturatingSum(line.quantity.saturatingProduct(line.caloriesPerUnit ?? 0))
            if let price = line.cheapest {
                byCurrency[price.currency] = (byCurrency[price.currency] ?? 0).saturatingSum(price.amountMinor.saturatingProduct(line.quantity))
            } else {
                unpriced += 1
            }
        }
        let prices = byCurrency.sorted { $0.key.rawValue < $1.key.rawValue }.map { Money(amountMinor: $0.value, currency: $0.key) }
        return ListTotals(calories: calories, prices: prices, unpricedItems: unpriced)
    }
}
