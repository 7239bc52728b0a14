import Testing

@testable import GeoSearchDomain

@Suite("Hilbert order")
struct HilbertOrderTests {
    @Test("on a small grid every cell has its own index and each step moves to a neighbouring cell")
    func visitsEveryCellByNeighbours() {
        for side: UInt64 in [2, 4, 8, 16] {
            var cellAt = [UInt64: (x: UInt64, y: UInt64)]()
            for x in 0..<side {
                for y in 0..<side { cellAt[HilbertOrder.index(x: x, y: y, side: side)] = (x, y) }
            }
            #expect(cellAt.count == Int(side * side))
            #expect(Set(cellAt.keys) == Set(0..<side * side))
            for step in 1..<side * side {
                let a = cellAt[step - 1]!, b = cellAt[step]!
                let distance = (a.x > b.x ? a.x - b.x : b.x - a.x) + (a.y > b.y ? a.y - b.y : b.y - a.y)
                #expect(distance == 1, "side \(side): step \(step) jumps from \(a) to \(b)")
            }
        }
    }

    @Test("the curve starts at the south-west corner and ends at the south-east one; the globe fits in 56 bits")
    func corners() {
        #expect(HilbertOrder.index(lat: -90, lon: -180) == 0)
        let last = Int64(1) << 56 - 1
        #expect(HilbertOrder.index(lat: -90, lon: 180) == last)
        #expect(HilbertOrder.index(lat: 95, lon: -200) == HilbertOrder.index(lat: 90, lon: -180))
        #expect((0...last).contains(HilbertOrder.index(lat: 52.37, lon: 4.89)))
    }

    @Test("nearby points are near in the order; far ones are far")
    func locality() {
        let amsterdam = HilbertOrder.index(lat: 52.3676, lon: 4.9041)
        let nextStreet = HilbertOrder.index(lat: 52.3677, lon: 4.9043)
        let sydney = HilbertOrder.index(lat: -33.8688, lon: 151.2093)
        #expect(abs(amsterdam - nextStreet) < abs(amsterdam - sydney) / 1_000_000)
    }

    @Test("a cell of a coarser grid is one run of the finer curve: the fine index's high bits are the coarse cell's index")
    func coarseCellsAreRuns() {
        for _ in 0..<2_000 {
            let (x, y) = (UInt64.random(in: 0..<HilbertOrder.side), UInt64.random(in: 0..<HilbertOrder.side))
            let fine = HilbertOrder.index(x: x, y: y, side: HilbertOrder.side)
            let shift = UInt64.random(in: 1...27)
            #expect(fine >> (2 * shift) == HilbertOrder.index(x: x >> shift, y: y >> shift, side: HilbertOrder.side >> shift))
        }
    }

    @Test("the ranges covering a box hold every point in it, edges and corners included; at most 16, sorted and apart")
    func rangesCoverTheBox() {
        for _ in 0..<500 {
            let size = [1e-6, 1e-3, 0.05, 0.5, 5, 60, 180].randomElement()!
            let south = Double.random(in: -90...90), west = Double.random(in: -180...180)
            let box = LatLonBox(
                south: south, west: west, north: min(90, south + Double.random(in: 0...size)),
                east: min(180, west + Double.random(in: 0...2 * size)))
            let ranges = HilbertOrder.ranges(covering: box)
            #expect((1...16).contains(ranges.count))
            for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound + 1 < b.lowerBound) }
            var points = [(box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east)]
            points += (0..<50).map { _ in (Double.random(in: box.south...box.north), Double.random(in: box.west...box.east)) }
            for (lat, lon) in points {
                let index = HilbertOrder.index(lat: lat, lon: lon)
                #expect(ranges.contains { $0.contains(index) }, "\(lat), \(lon) outside the ranges of \(box)")
            }
        }
    }

    @Test("the ranges of a small box hold little beyond it: a 1 km box's ranges span at most a few km² of cells")
    func rangesAreTight() {
        let box = LatLonBox(south: 37.70, west: -122.26, north: 37.709, east: -122.249)
        let cells = HilbertOrder.ranges(covering: box).map { $0.upperBound - $0.lowerBound + 1 }.reduce(0, +)
        // A cell of the finest grid is 180°/2^28 by 360°/2^28; the box is about 0.009° by 0.011°.
        let boxCells = (0.009 / (180.0 / Double(1 << 28))) * (0.011 / (360.0 / Double(1 << 28)))
        #expect(Double(cells) < boxCells * 16)
        #expect(Double(cells) >= boxCells)
    }
}
