import Foundation

/// One year's donations, in all and by the organisations' categories:
/// `GET /v1/donations/totals`.
public struct YearlyTotals: Codable, Sendable, Equatable {
    public struct Total: Codable, Sendable, Equatable {
        public var currency: CurrencyCode
        public var amountMinor: Int
        public var donations: Int

        public init(currency: CurrencyCode, amountMinor: Int, donations: Int) {
            self.currency = currency
            self.amountMinor = amountMinor
            self.donations = donations
        }
    }

    public struct CategoryTotal: Codable, Sendable, Equatable {
        public var category: String
        public var currency: CurrencyCode
        public var amountMinor: Int

        public init(category: String, currency: CurrencyCode, amountMinor: Int) {
            self.category = category
            self.currency = currency
            self.amountMinor = amountMinor
        }
    }

    public var year: Int
    public var totals: [Total]
    /// A donation to an organisation of several categories counts in each of them.
    public var byCategory: [CategoryTotal]

    public init(year: Int, totals: [Total], byCategory: [CategoryTotal]) {
        self.year = year
        self.totals = totals
        self.byCategory = byCategory
    }
}
