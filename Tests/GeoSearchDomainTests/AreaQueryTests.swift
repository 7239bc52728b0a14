import GeoSearchDomain
import Testing

@Suite("map boxes")
struct AreaQueryTests {
    @Test("a box that crosses the antimeridian is two boxes")
    func crossing() throws {
        let area = try AreaQuery.parse(["swLat": "-20", "swLon": "170", "neLat": "-10", "neLon": "-170"])
        #expect(
            Set(area.boxes) == [
                LatLonBox(south: -20, west: 170, north: -10, east: 180),
                LatLonBox(south: -20, west: -180, north: -10, east: -170),
            ])
        for lon in [170, 175, 179.999, 180, -180, -175, -170] {
            #expect(area.contains(point(-15, lon)), "\(lon)")
        }
        for lon in [169.999, 0, -169.999, 90] {
            #expect(!area.contains(point(-15, lon)), "\(lon)")
        }
    }

    @Test("edges and corners of a map box count as inside; a hair beyond does not")
    func edges() throws {
        let area = try AreaQuery.parse(["swLat": "37.7", "swLon": "-122.5", "neLat": "37.8", "neLon": "-122.4"])
        #expect(area.boxes.count == 1)
        for inside in [point(37.7, -122.5), point(37.8, -122.4), point(37.7, -122.4), point(37.75, -122.5), point(37.8, -122.45)] {
            #expect(area.contains(inside), "\(inside)")
        }
        for outside in [point(37.699_999, -122.45), point(37.800_001, -122.45), point(37.75, -122.500_001), point(37.75, -122.399_999)] {
            #expect(!area.contains(outside), "\(outside)")
        }
    }

    @Test("a box from -180° to 180° is the whole band of latitudes")
    func wholeBand() throws {
        let area = try AreaQuery.parse(["swLat": "-90", "swLon": "-180", "neLat": "90", "neLon": "180"])
        #expect(area.boxes == [LatLonBox(south: -90, west: -180, north: 90, east: 180)])
        #expect(area.contains(point(90, 0)) && area.contains(point(-90, 180)))
    }
}
