import Foundation

/// A rating of an organisation by an evaluator.
public struct OrganizationRating: Codable, Sendable, Hashable {
    public var value: Double
    public var scale: Double
    public var source: String
    /// `YYYY-MM-DD`.
    public var date: String

    public init(value: Double, scale: Double, source: String, date: String) {
        self.value = value
        self.scale = scale
        self.source = source
        self.date = date
    }
}

/// When a donation centre is open.
public struct OpeningHours: Codable, Sendable, Hashable {
    /// `mon` … `sun`.
    public var day: String
    /// `HH:mm`, local time.
    public var opens: String
    public var closes: String

    public init(day: String, opens: String, closes: String) {
        self.day = day
        self.opens = opens
        self.closes = closes
    }
}
