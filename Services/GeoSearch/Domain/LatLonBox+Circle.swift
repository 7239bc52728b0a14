import Foundation
import Geo

extension LatLonBox {
    /// The boxes that together contain every point within `radiusMeters` of `center` (by
    /// `GeoCoordinate.distanceMeters(to:)`), for an index prefilter; exact distances then
    /// decide. One box, or two either side of the antimeridian when the circle crosses it.
    /// A circle that reaches a pole covers all longitudes, and its box reaches that pole.
    ///
    /// The box is drawn on the mean sphere, with no bearings: latitudes ± the angular radius,
    /// longitudes ± asin(sin r / cos φ), the widest the circle gets (J. P. Matuschek,
    /// "Finding points within a distance of a latitude/longitude using bounding coordinates").
    /// On the sphere a point can be up to 0.56 % farther than on the ellipsoid (north–south
    /// near the equator, where the meridian curves least), so the radius is widened by 1 %
    /// before drawing; without that, points on the edge of a circle would be missed.
    public static func covering(center: GeoCoordinate, radiusMeters: Double) -> [LatLonBox] {
        let radius = max(0, radiusMeters) * sphereMargin / Earth.meanRadiusMeters
        let south = center.latRadians - radius
        let north = center.latRadians + radius
        guard south > -.pi / 2, north < .pi / 2 else {
            return [LatLonBox(south: max(-90, degrees(south)), west: -180, north: min(90, degrees(north)), east: 180)]
        }
        // Away from the poles sin r < cos φ; the min only guards against rounding.
        let halfWidth = degrees(asin(min(1, sin(radius) / cos(center.latRadians))))
        let (west, east) = (center.lon - halfWidth, center.lon + halfWidth)
        let (southDegrees, northDegrees) = (degrees(south), degrees(north))
        if west < -180 {
            return [
                LatLonBox(south: southDegrees, west: west + 360, north: northDegrees, east: 180),
                LatLonBox(south: southDegrees, west: -180, north: northDegrees, east: east),
            ]
        }
        if east > 180 {
            return [
                LatLonBox(south: southDegrees, west: west, north: northDegrees, east: 180),
                LatLonBox(south: southDegrees, west: -180, north: northDegrees, east: east - 360),
            ]
        }
        return [LatLonBox(south: southDegrees, west: west, north: northDegrees, east: east)]
    }

    /// How much wider than the radius a box is drawn: spherical over ellipsoidal distance is
    /// at most R / M(0) = 6,371.0088 / 6,335.439 ≈ 1.0056, so 1 % leaves room to spare.
    static let sphereMargin = 1.01
}

private func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
