@testable import GeoSearchDomain
import Testing

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
}
