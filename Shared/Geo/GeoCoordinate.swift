import Foundation

/// A point on the Earth in WGS-84 degrees. A value of this type has always been checked:
/// its latitude is within ±90 and its longitude within ±180, both finite.
public struct GeoCoordinate: Sendable, Hashable {
    /// Degrees north of the equator, -90...90.
    public let lat: Double
    /// Degrees east of Greenwich, -180...180; both ends name the antimeridian.
    public let lon: Double

    /// The point, or nil when either number is out of range or not finite.
    public init?(lat: Double, lon: Double) {
        guard Self.latitudeProblem(lat) == nil, Self.longitudeProblem(lon) == nil else { return nil }
        self.init(checkedLat: lat, lon: lon)
    }

    // For points this module computes from valid ones, which are in range by construction.
    package init(checkedLat lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// What is wrong with a latitude, or nil when it is a valid one.
    public static func latitudeProblem(_ lat: Double) -> String? {
        lat.isFinite && (-90...90).contains(lat) ? nil : "must be between -90 and 90"
    }

    /// What is wrong with a longitude, or nil when it is a valid one.
    public static func longitudeProblem(_ lon: Double) -> String? {
        lon.isFinite && (-180...180).contains(lon) ? nil : "must be between -180 and 180"
    }

    package var latRadians: Double { lat * .pi / 180 }
    package var lonRadians: Double { lon * .pi / 180 }
}
