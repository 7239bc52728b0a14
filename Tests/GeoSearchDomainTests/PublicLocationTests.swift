import Foundation
import Geo
import GeoSearchDomain
import Testing

@Suite("public locations")
struct PublicLocationTests {
    /// Random points anywhere, and the awkward places: the poles, both sides of the antimeridian, the equator.
    static func exactPoints() -> [GeoCoordinate] {
        var random = SeededGenerator(seed: 19)
        var points = (0..<20_000).map { _ in random.anywhere() }
        for _ in 0..<2_000 {
            points.append(point(.random(in: 89.9...90, using: &random), .random(in: -180...180, using: &random)))
            points.append(point(.random(in: -90 ... -89.9, using: &random), .random(in: -180...180, using: &random)))
            points.append(point(.random(in: -60...60, using: &random), .random(in: 179.99...180, using: &random)))
            points.append(point(.random(in: -60...60, using: &random), .random(in: -180 ... -179.99, using: &random)))
            points.append(point(.random(in: -0.01...0.01, using: &random), .random(in: -180...180, using: &random)))
        }
        return points + [point(90, 0), point(-90, 0), point(0, 180), point(0, -180), point(0, 0)]
    }

    @Test("the public point is never more than 500 m from the exact one, and usually moved")
    func displacement() {
        var random = SeededGenerator(seed: 23)
        let distances = Self.exactPoints().map { exact in
            exact.distanceMeters(to: PublicLocation(listingId: random.uuid(), exact: exact).point)
        }
        #expect(PublicLocation.maximumDisplacementMeters == 500)
        #expect(distances.allSatisfy { $0 <= 500 }, "largest \(distances.max() ?? 0) m")
        // The offset is not a token one: typical public points are well away from the exact one.
        #expect(distances.sorted()[distances.count / 2] > 100)
    }

    @Test("the public point is the same on every call")
    func stable() {
        var random = SeededGenerator(seed: 29)
        for exact in Self.exactPoints().prefix(1_000) {
            let id = random.uuid()
            #expect(PublicLocation(listingId: id, exact: exact) == PublicLocation(listingId: id, exact: exact))
        }
    }

    @Test("stable hashes match published test vectors, so public points are the same in every process")
    func stableHashVectors() {
        // FNV-1a 64 test vectors from the FNV reference (isthe.com/chongo/tech/comp/fnv).
        #expect(StableHash.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64("foobar".utf8) == 0x8594_4171_f739_67e8)
        // SplitMix64 seeded with 0 first yields 0xe220a8397b1dcdaf: the mix of its first state.
        #expect(StableHash.mix(0x9e37_79b9_7f4a_7c15) == 0xe220_a839_7b1d_cdaf)
    }

    @Test("two listings at the same exact point get different public points, spread over the neighbourhood")
    func distinctListings() {
        var random = SeededGenerator(seed: 31)
        let exact = point(37.7749, -122.4194)
        let points = (0..<1_000).map { _ in PublicLocation(listingId: random.uuid(), exact: exact).point }
        #expect(Set(points).count == points.count)
        let farthestApart = points.dropFirst().map { points[0].distanceMeters(to: $0) }.max() ?? 0
        #expect(farthestApart > 200)
    }

    @Test("moving the exact point a few metres within its neighbourhood does not move the public point")
    func exactPointInsideCellIsHidden() {
        var random = SeededGenerator(seed: 37)
        var unchanged = 0
        let samples = 2_000
        for _ in 0..<samples {
            let id = random.uuid()
            let exact = point(.random(in: -80...80, using: &random), .random(in: -179...179, using: &random))
            let nearby = sphericalDestination(from: exact, bearing: .random(in: 0..<360, using: &random), meters: 3)
            if PublicLocation(listingId: id, exact: exact) == PublicLocation(listingId: id, exact: nearby) { unchanged += 1 }
        }
        // Only a move across a cell's edge (a few in a hundred for 3 m) may change it.
        #expect(Double(unchanged) / Double(samples) > 0.9)
    }

    @Test("every query, from any centre, measures the same public point and never the exact one")
    func sameForEveryQuery() {
        var random = SeededGenerator(seed: 41)
        let exact = point(51.5007, -0.1246)
        let id = random.uuid()
        let location = PublicLocation(listingId: id, exact: exact)
        var differsFromExact = false
        for _ in 0..<50 {
            let center = sphericalDestination(
                from: exact, bearing: .random(in: 0..<360, using: &random), meters: .random(in: 100...20_000, using: &random))
            let reported = location.distanceMeters(from: center)
            #expect(PublicLocation(listingId: id, exact: exact) == location)
            #expect(abs(reported - center.distanceMeters(to: location.point)) < 1e-6)
            if abs(reported - center.distanceMeters(to: exact)) > 1 { differsFromExact = true }
        }
        #expect(differsFromExact)
    }
}
