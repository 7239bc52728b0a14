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

/// A point on the Earth, in degrees.
public struct Coordinate: Codable, Sendable, Hashable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
