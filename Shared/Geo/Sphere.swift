import Foundation

/// Angles on a sphere, the building block of both distance methods and of index boxes.
enum Sphere {
    /// The angle at the centre between two points given in radians, in radians (0...π).
    ///
    /// The atan2 form is accurate at every separation, unlike haversine near antipodes and the
    /// law of cosines near zero; the longitude difference only enters through sin and cos,
    /// so the antimeridian needs no special case.
    static func centralAngle(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let deltaLon = lon2 - lon1
        let east = cos(lat2) * sin(deltaLon)
        let north = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(deltaLon)
        let along = sin(lat1) * sin(lat2) + cos(lat1) * cos(lat2) * cos(deltaLon)
        return atan2((east * east + north * north).squareRoot(), along)
    }
}
