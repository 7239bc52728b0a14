import Geo
import GeoSearchDomain
import Testing

@Suite("directions links")
struct DirectionsTests {
    @Test("a directions link is an Apple Maps daddr link with 6 decimals")
    func format() {
        #expect(point(37.7749, -122.4194).directionsURL.absoluteString == "https://maps.apple.com/?daddr=37.774900,-122.419400")
        #expect(point(-33.868_819_7, 151.209_295_7).directionsURL.absoluteString == "https://maps.apple.com/?daddr=-33.868820,151.209296")
        #expect(point(90, -180).directionsURL.absoluteString == "https://maps.apple.com/?daddr=90.000000,-180.000000")
    }

    @Test("a link written in one go is the link printf's %.6f would give, for random points, halves and the ends of the ranges")
    func matchesPrintf() {
        var generator = SystemRandomNumberGenerator()
        var points: [(Double, Double)] = [(0, 0), (-0.0, -0.0), (90, 180), (-90, -180), (0.000_000_5, -0.000_000_5), (12.345_678_5, -179.999_999_5)]
        for _ in 0..<10_000 {
            points.append((Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator)))
        }
        for (lat, lon) in points {
            let expected = "https://maps.apple.com/?daddr=\(SixDecimals.formatted(lat)),\(SixDecimals.formatted(lon))"
            #expect(point(lat, lon).directionsLink == expected, "\(lat), \(lon)")
        }
    }

    @Test("a coordinate that rounds to zero is written 0.000000, without a minus sign")
    func negativeZero() {
        #expect(point(-0.000_000_1, -0.000_000_4).directionsURL.absoluteString == "https://maps.apple.com/?daddr=0.000000,0.000000")
    }
}

@Suite("six decimals")
struct SixDecimalsTests {
    @Test("written by hand, a degree is what printf's %.6f writes, for random points, halves and their neighbours")
    func matchesPrintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 1, -1, 0.000_000_5, -0.000_000_5, 0.000_001_5, 12.345_678_5, -12.345_678_5, 179.999_999_5, 89.999_999_9, 180, -180,
        ]
        for _ in 0..<20_000 { values.append(Double.random(in: -180...180, using: &generator)) }
        // Exact halves of a millionth and the doubles either side of them.
        for _ in 0..<5_000 {
            let half = (Double(Int.random(in: -180_000_000...180_000_000, using: &generator)) + 0.5) / 1_000_000
            values += [half, half.nextUp, half.nextDown]
        }
        for value in values {
            #expect(SixDecimals.text(value) == SixDecimals.formatted(value), "\(value)")
        }
    }
}
