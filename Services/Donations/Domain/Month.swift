import Foundation

/// A calendar month in UTC, written `YYYY-MM`: the unit of monthly donations.
public struct Month: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    /// 1…12.
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...12).contains(month), (1970...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
    }

    /// Reads `YYYY-MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        self.init(year: year, month: month)
    }

    /// The month `date` falls in, in UTC.
    public init(containing date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
    }

    public var next: Month { month == 12 ? Month(year: year + 1, month: 1)! : Month(year: year, month: month + 1)! }

    public var description: String { String(format: "%04d-%02d", year, month) }

    public static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}
