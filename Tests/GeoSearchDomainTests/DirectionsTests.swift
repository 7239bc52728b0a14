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

    @Test("a coordinate that rounds to zero is written 0.000000, without a minus sign")
    func negativeZero() {
        #expect(point(-0.000_000_1, -0.000_000_4).directionsURL.absoluteString == "https://maps.apple.com/?daddr=0.000000,0.000000")
    }
}
