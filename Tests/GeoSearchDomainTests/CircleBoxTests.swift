import Foundation
import Geo
import GeoSearchDomain
import Testing

/// A circle to cover with index boxes.
struct Circle: CustomTestStringConvertible, Sendable {
    let name: String
    let center: GeoCoordinate
    let radiusMeters: Double

    var testDescription: String { name }
}

@Suite("index boxes around a circle")
struct CircleBoxTests {
    static let circles: [Circle] = [
        Circle(name: "5 km in San Francisco", center: point(37.7749, -122.4194), radiusMeters: 5_000),
        Circle(name: "50 km on the equator, where the sphere errs most", center: point(0, 30), radiusMeters: 50_000),
        Circle(name: "200 km around Suva, across the antimeridian", center: point(-18.1416, 178.4419), radiusMeters: 200_000),
        Circle(name: "20 km just east of the antimeridian", center: point(10, -179.99), radiusMeters: 20_000),
        Circle(name: "20 km reaching the North Pole", center: point(89.9, 45), radiusMeters: 20_000),
        Circle(name: "10 km just short of the South Pole", center: point(-89.8, -100), radiusMeters: 10_000),
        Circle(name: "2,000 km at 60° N", center: point(60, 10), radiusMeters: 2_000_000),
        Circle(name: "0 m", center: point(51.5, -0.12), radiusMeters: 0),
    ]

    @Test("the boxes contain every point of the circle, in all 360 directions", arguments: circles)
    func containsTheCircle(circle: Circle) {
        let boxes = LatLonBox.covering(center: circle.center, radiusMeters: circle.radiusMeters)
        #expect(boxes.contains { $0.contains(circle.center) })
        for bearing in stride(from: 0.0, to: 360, by: 1) {
            for fraction in [1.0, 0.5] {
                let onCircle = destination(from: circle.center, bearing: bearing, meters: circle.radiusMeters * fraction)
                #expect(boxes.contains { $0.contains(onCircle) }, "bearing \(bearing)°: \(onCircle) is outside \(boxes)")
            }
        }
    }

    @Test("every box is well formed and inside the globe", arguments: circles)
    func wellFormed(circle: Circle) {
        for box in LatLonBox.covering(center: circle.center, radiusMeters: circle.radiusMeters) {
            #expect(box.south <= box.north && box.west <= box.east)
            #expect(box.south >= -90 && box.north <= 90 && box.west >= -180 && box.east <= 180)
        }
    }

    @Test("a circle that crosses the antimeridian is two boxes, meeting at ±180°")
    func crossingAntimeridian() throws {
        for center in [point(-18.1416, 179.9), point(10, -179.99)] {
            let boxes = LatLonBox.covering(center: center, radiusMeters: 20_000)
            try #require(boxes.count == 2)
            #expect(boxes.contains { $0.east == 180 } && boxes.contains { $0.west == -180 })
            // Neither box spans the globe the long way round.
            #expect(boxes.allSatisfy { $0.east - $0.west < 1 })
        }
    }

    @Test("a circle that reaches a pole covers all longitudes up to that pole")
    func reachingAPole() throws {
        let north = LatLonBox.covering(center: point(89.9, 45), radiusMeters: 20_000)
        #expect(north == [LatLonBox(south: try #require(north.first).south, west: -180, north: 90, east: 180)])
        let south = LatLonBox.covering(center: point(-89.95, 120), radiusMeters: 10_000)
        #expect(south.count == 1 && south[0].south == -90 && south[0].west == -180 && south[0].east == 180)
        #expect(LatLonBox.covering(center: point(0, 0), radiusMeters: 20_000_000) == [LatLonBox(south: -90, west: -180, north: 90, east: 180)])
    }

    @Test("a circle away from poles and the antimeridian is one box, barely larger than the circle")
    func tightBox() throws {
        let center = point(37.7749, -122.4194)
        let boxes = LatLonBox.covering(center: center, radiusMeters: 5_000)
        let box = try #require(boxes.first)
        #expect(boxes.count == 1)
        for edge in [point(box.north, center.lon), point(box.south, center.lon), point(center.lat, box.east), point(center.lat, box.west)] {
            let reach = center.distanceMeters(to: edge)
            #expect(reach >= 5_000 && reach <= 5_000 * 1.02, "edge \(edge) is \(reach) m away")
        }
    }
}
