/// A position along a Hilbert curve over the whole globe: points close on the map are
/// mostly close in this order too, and the curve never jumps across the map as a
/// row-by-row order does at the end of each row.
///
/// Geo-search indexes each searchable listing by its band (category and status) and its
/// place on this curve, in an ordinary B-tree: a box is then a few ranges of the curve
/// (``ranges(covering:)``). (An R*Tree did this before; filling it was most of a rebuild.)
public enum HilbertOrder {
    /// Bits per coordinate: 28 of latitude and 28 of longitude, cells of about 7 cm.
    public static let bitsPerAxis = 28

    static let side = UInt64(1) << UInt64(bitsPerAxis)

    /// The index of the cell holding (`lat`, `lon`), in `0 ..< 2^56`. Coordinates outside
    /// ±90 / ±180 are clamped to the edge.
    public static func index(lat: Double, lon: Double) -> Int64 {
        Int64(index(x: column(lon), y: row(lat), side: side))
    }

    /// Ranges of the curve that hold every point of `box` (and some around it): the box's
    /// cells at the finest level where it spans at most four cells each way, each cell one
    /// range (the curve fills a cell before it leaves it), sorted, with neighbours merged.
    /// At most 16 ranges; the points they hold beyond the box are for the caller to drop.
    public static func ranges(covering box: LatLonBox) -> [ClosedRange<Int64>] {
        let (west, east, south, north) = (column(box.west), column(box.east), row(box.south), row(box.north))
        let span = max(east - west, north - south) + 1
        var shift: UInt64 = 0
        while span >> shift > 3 { shift += 1 }
        var starts: [UInt64] = []
        for x in (west >> shift)...(east >> shift) {
            for y in (south >> shift)...(north >> shift) {
                starts.append(index(x: x, y: y, side: side >> shift) << (2 * shift))
            }
        }
        let length = UInt64(1) << (2 * shift)
        var ranges: [ClosedRange<Int64>] = []
        for start in starts.sorted() {
            let end = Int64(start + length - 1)
            if let last = ranges.last, last.upperBound + 1 == Int64(start) {
                ranges[ranges.count - 1] = last.lowerBound...end
            } else {
                ranges.append(Int64(start)...end)
            }
        }
        return ranges
    }

    private static func column(_ lon: Double) -> UInt64 { cell(lon, -180, 180) }
    private static func row(_ lat: Double) -> UInt64 { cell(lat, -90, 90) }

    private static func cell(_ value: Double, _ low: Double, _ high: Double) -> UInt64 {
        let scaled = (min(max(value, low), high) - low) / (high - low) * Double(side)
        return min(UInt64(max(scaled, 0)), side - 1)
    }

    /// The classic iterative mapping of a cell of a `side` × `side` grid (a power of two)
    /// to its distance along the curve.
    static func index(x: UInt64, y: UInt64, side: UInt64) -> UInt64 {
        var x = x, y = y, distance: UInt64 = 0
        var half = side / 2
        while half > 0 {
            let rx: UInt64 = x & half != 0 ? 1 : 0
            let ry: UInt64 = y & half != 0 ? 1 : 0
            distance += half * half * ((3 * rx) ^ ry)
            // Turn the quadrant so that the curve inside it starts and ends where it must.
            if ry == 0 {
                if rx == 1 {
                    x = half - 1 - (x & (half - 1))
                    y = half - 1 - (y & (half - 1))
                }
                swap(&x, &y)
            }
            x &= half - 1
            y &= half - 1
            half /= 2
        }
        return distance
    }
}
