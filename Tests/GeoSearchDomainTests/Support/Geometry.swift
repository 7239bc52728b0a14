import Foundation
import Geo
import GeoSearchDomain

/// A coordinate that the test knows to be valid.
func point(_ lat: Double, _ lon: Double) -> GeoCoordinate {
    guard let coordinate = GeoCoordinate(lat: lat, lon: lon) else { fatalError("test point \(lat), \(lon) is out of range") }
    return coordinate
}

/// Great-circle distance on the mean sphere by the haversine formula: the method the
/// module does not use, kept here to show why.
func haversineMeters(_ from: GeoCoordinate, _ to: GeoCoordinate) -> Double {
    let (lat1, lat2) = (from.lat * .pi / 180, to.lat * .pi / 180)
    let (dLat, dLon) = (lat2 - lat1, (to.lon - from.lon) * .pi / 180)
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * Earth.meanRadiusMeters * asin(min(1, h.squareRoot()))
}

/// The point `meters` from `start` on the mean sphere along initial `bearing` (degrees
/// clockwise from north): the spherical destination formula.
func sphericalDestination(from start: GeoCoordinate, bearing: Double, meters: Double) -> GeoCoordinate {
    let delta = meters / Earth.meanRadiusMeters
    let theta = bearing * .pi / 180
    let (lat1, lon1) = (start.lat * .pi / 180, start.lon * .pi / 180)
    let lat2 = asin(min(1, max(-1, sin(lat1) * cos(delta) + cos(lat1) * sin(delta) * cos(theta))))
    let lon2 = lon1 + atan2(sin(theta) * sin(delta) * cos(lat1), cos(delta) - sin(lat1) * sin(lat2))
    var lon = lon2 * 180 / .pi
    while lon > 180 { lon -= 360 }
    while lon < -180 { lon += 360 }
    return point(min(90, max(-90, lat2 * 180 / .pi)), lon)
}

/// The point along `bearing` from `start` that the module counts as `meters` away, found by
/// rescaling the spherical distance until it fits: a point on the edge of a nearby search.
func destination(from start: GeoCoordinate, bearing: Double, meters: Double) -> GeoCoordinate {
    // The formula's rounding would move even a 0 m destination by a last bit.
    guard meters > 0 else { return start }
    var spherical = meters
    var candidate = sphericalDestination(from: start, bearing: bearing, meters: spherical)
    for _ in 0..<6 {
        let actual = start.distanceMeters(to: candidate)
        guard actual > 0 else { break }
        spherical *= meters / actual
        candidate = sphericalDestination(from: start, bearing: bearing, meters: spherical)
    }
    return candidate
}

/// A reproducible source of random numbers (SplitMix64), so that every run tests the same points.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// A UUID made of this generator's bits.
    mutating func uuid() -> UUID {
        let (high, low) = (next(), next())
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(index)))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(index)))
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// A point anywhere on the globe, uniform in latitude and longitude.
    mutating func anywhere() -> GeoCoordinate {
        point(Double.random(in: -90...90, using: &self), Double.random(in: -180...180, using: &self))
    }
}
