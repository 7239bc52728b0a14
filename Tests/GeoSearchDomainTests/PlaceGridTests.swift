import Geo
import GeoSearchDomain
import Testing

@Suite("points in memory on a grid")
struct PlaceGridTests {
    private func point(_ lat: Double, _ lon: Double) -> GeoCoordinate { GeoCoordinate(lat: lat, lon: lon)! }

    private func found(_ grid: PlaceGrid<String>, in box: LatLonBox, band: Int64) -> [String] {
        var values: [String] = []
        grid.forEach(in: box, band: band) { _, value in values.append(value) }
        return values.sorted()
    }

    @Test("a box finds the points of its band inside it, edges included, and no others")
    func boxAndBand() {
        var grid = PlaceGrid<String>()
        grid.set(1, band: 4, at: point(52.30, 4.90), value: "inside")
        grid.set(2, band: 4, at: point(52.35, 4.95), value: "on the corner")
        grid.set(3, band: 4, at: point(52.3501, 4.90), value: "just north")
        grid.set(4, band: 5, at: point(52.32, 4.92), value: "other band")
        grid.set(5, band: 4, at: point(-33.9, 151.2), value: "far away")
        let box = LatLonBox(south: 52.25, west: 4.85, north: 52.35, east: 4.95)
        #expect(found(grid, in: box, band: 4) == ["inside", "on the corner"])
        #expect(found(grid, in: box, band: 5) == ["other band"])
        #expect(grid.count == 5)
    }

    @Test("a point set again moves between cells and bands, and a removed one is gone")
    func moveAndRemove() {
        var grid = PlaceGrid<String>()
        grid.set(1, band: 2, at: point(10, 10), value: "first")
        grid.set(1, band: 2, at: point(10.5, 10.5), value: "moved")
        let near = LatLonBox(south: 9.9, west: 9.9, north: 10.1, east: 10.1)
        let there = LatLonBox(south: 10.4, west: 10.4, north: 10.6, east: 10.6)
        #expect(found(grid, in: near, band: 2).isEmpty)
        #expect(found(grid, in: there, band: 2) == ["moved"])
        grid.set(1, band: 3, at: point(10.5, 10.5), value: "promised")
        #expect(found(grid, in: there, band: 2).isEmpty)
        #expect(found(grid, in: there, band: 3) == ["promised"])
        grid.set(2, band: 3, at: point(10.5, 10.5), value: "neighbour")
        grid.remove(1)
        grid.remove(1)
        #expect(found(grid, in: there, band: 3) == ["neighbour"])
        #expect(grid.count == 1)
    }

    @Test("the ends of the map: both poles and both sides of the antimeridian")
    func ends() {
        var grid = PlaceGrid<String>()
        grid.set(1, band: 0, at: point(90, 180), value: "north pole, east end")
        grid.set(2, band: 0, at: point(-90, -180), value: "south pole, west end")
        #expect(found(grid, in: LatLonBox(south: 89.99, west: 179.99, north: 90, east: 180), band: 0) == ["north pole, east end"])
        #expect(found(grid, in: LatLonBox(south: -90, west: -180, north: -89.99, east: -179.99), band: 0) == ["south pole, west end"])
    }

    @Test("a box covers as many cells as it spans rows by columns of a hundredth of a degree")
    func cellCount() {
        #expect(PlaceGrid<String>.cellCount(of: LatLonBox(south: 52.301, west: 4.901, north: 52.309, east: 4.909)) == 1)
        #expect(PlaceGrid<String>.cellCount(of: LatLonBox(south: 52.305, west: 4.905, north: 52.315, east: 4.925)) == 2 * 3)
        #expect(PlaceGrid<String>.cellCount(of: LatLonBox(south: -90, west: -180, north: 90, east: 180)) == 18_001 * 36_001)
    }
}
