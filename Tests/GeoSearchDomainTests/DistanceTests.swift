import Foundation
import Geo
import GeoSearchDomain
import Testing

/// A pair of places, and where a published figure exists, the distance between them in km.
struct CityPair: CustomTestStringConvertible, Sendable {
    let name: String
    let from: GeoCoordinate
    let to: GeoCoordinate
    let publishedKilometers: Double?

    var testDescription: String { name }
}

@Suite("distances")
struct DistanceTests {
    static let sanFrancisco = point(37.7749, -122.4194)

    static let pairs: [CityPair] = [
        CityPair(name: "San Francisco – Sacramento", from: sanFrancisco, to: point(38.5816, -121.4944), publishedKilometers: 121),
        CityPair(name: "San Francisco – Los Angeles", from: sanFrancisco, to: point(34.0522, -118.2437), publishedKilometers: 559),
        CityPair(name: "London – Paris", from: point(51.5074, -0.1278), to: point(48.8566, 2.3522), publishedKilometers: 344),
        CityPair(
            name: "Suva – 179.9° W, across the antimeridian", from: point(-18.1416, 178.4419), to: point(-18.1416, -179.9), publishedKilometers: nil),
        // One degree of latitude near the pole is 111.69 km on WGS-84.
        CityPair(
            name: "89.5° N on opposite meridians, across the North Pole", from: point(89.5, 0), to: point(89.5, 180), publishedKilometers: 111.69),
        CityPair(name: "89.9° S, 0° and 90° E, near the South Pole", from: point(-89.9, 0), to: point(-89.9, 90), publishedKilometers: nil),
        CityPair(name: "5° north along a meridian at the equator", from: point(0, 10), to: point(5, 10), publishedKilometers: nil),
        CityPair(name: "Honolulu – San Francisco", from: point(21.3069, -157.8583), to: sanFrancisco, publishedKilometers: 3_857),
    ]

    @Test("the Vincenty reference reproduces published geodesics")
    func referenceIsRight() throws {
        // Flinders Peak to Buninyong, the worked example of Geoscience Australia: 54,972.271 m.
        let flinders = point(-(37 + 57 / 60.0 + 3.72030 / 3600), 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = point(-(37 + 39 / 60.0 + 10.15610 / 3600), 143 + 55 / 60.0 + 35.38390 / 3600)
        #expect(try abs(#require(Vincenty.distanceMeters(flinders, buninyong)) - 54_972.271) < 0.001)
        // A quarter meridian of WGS-84 is 10,001,965.729 m; a degree of the equator is a·π/180.
        #expect(try abs(#require(Vincenty.distanceMeters(point(0, 0), point(90, 0))) - 10_001_965.729) < 0.001)
        #expect(try abs(#require(Vincenty.distanceMeters(point(0, 0), point(0, 1))) - 6_378_137 * .pi / 180) < 0.001)
    }

    @Test("distances between known places agree with the WGS-84 geodesic within 0.1 %", arguments: pairs)
    func knownPlaces(pair: CityPair) throws {
        let reference = try #require(Vincenty.distanceMeters(pair.from, pair.to))
        let measured = pair.from.distanceMeters(to: pair.to)
        #expect(abs(measured - reference) / reference < 0.001)
        if let published = pair.publishedKilometers {
            #expect(abs(measured / 1_000 - published) / published < 0.005, "published \(published) km, measured \(measured / 1_000) km")
        }
    }

    @Test("random distances under 1,000 km, anywhere on the globe, stay within 0.1 % of the geodesic")
    func randomShortDistances() {
        var random = SeededGenerator(seed: 5)
        var worst = 0.0
        for _ in 0..<20_000 {
            let from = random.anywhere()
            let to = sphericalDestination(
                from: from, bearing: .random(in: 0..<360, using: &random), meters: .random(in: 1...1_000_000, using: &random))
            guard let reference = Vincenty.distanceMeters(from, to), reference >= 1 else { continue }
            worst = max(worst, abs(from.distanceMeters(to: to) - reference) / reference)
        }
        #expect(worst < 0.001, "worst relative error \(worst)")
    }

    @Test("on the mean sphere alone, distances would miss the 0.1 % bound; that is why they are ellipsoidal")
    func sphereIsNotEnough() throws {
        let errors = try Self.pairs.map { pair in
            let reference = try #require(Vincenty.distanceMeters(pair.from, pair.to))
            return abs(haversineMeters(pair.from, pair.to) - reference) / reference
        }
        #expect(errors.max() ?? 0 > 0.001)
    }

    @Test("distances are symmetric, zero from a point to itself, and the same at -180° and 180°")
    func basicProperties() {
        let (suva, sacramento) = (point(-18.1416, 178.4419), point(38.5816, -121.4944))
        #expect(suva.distanceMeters(to: sacramento) == sacramento.distanceMeters(to: suva))
        #expect(suva.distanceMeters(to: suva) == 0)
        #expect(point(90, 0).distanceMeters(to: point(90, 123)) < 0.001)
        #expect(point(12, 180).distanceMeters(to: point(12, -180)) < 0.001)
        #expect(point(12, 180).distanceMeters(to: suva) - point(12, -180).distanceMeters(to: suva) < 0.001)
    }

    @Test("across the antimeridian the short way round is measured")
    func shortWayRound() throws {
        let (west, east) = (point(0, 179.9), point(0, -179.9))
        let reference = try #require(Vincenty.distanceMeters(west, east))
        // 0.2° of the equator, not 359.8°.
        #expect(abs(west.distanceMeters(to: east) - 6_378_137 * 0.2 * .pi / 180) < 0.01)
        #expect(abs(west.distanceMeters(to: east) - reference) < 0.01)
    }

    @Test("nearly antipodal points get a finite distance close to half the Earth's circumference")
    func antipodes() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let from = random.anywhere()
            let to = point(min(90, max(-90, -from.lat + .random(in: -0.01...0.01, using: &random))), from.lon > 0 ? from.lon - 180 : from.lon + 180)
            let distance = from.distanceMeters(to: to)
            // The geodesic between antipodes is half a meridian, 20,003.93 km; half the equator is 20,037.51 km.
            #expect(distance.isFinite && distance > 19_990_000 && distance < 20_040_000, "\(from) \(to): \(distance)")
        }
    }
}
