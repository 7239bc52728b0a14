import Foundation

/// A point on the Earth, in degrees.
public struct Coordinate: Codable, Sendable, Hashable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
