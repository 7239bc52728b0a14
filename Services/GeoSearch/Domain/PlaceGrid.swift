import Geo

/// Points kept in memory by band, on a grid of cells a hundredth of a degree across (about
/// 1.1 km north to south), so that the points of one band in a box are found by looking at
/// the few cells the box covers. Each point has a key (a row id) and a value.
package struct PlaceGrid<Value: Sendable>: Sendable {
    /// The side of a cell, in degrees.
    package static var cellDegrees: Double { 0.01 }

    private struct Cell: Hashable, Sendable {
        var band: Int64
        var row: Int32
        var column: Int32
    }

    private struct Entry: Sendable {
        var cell: Cell
        var point: GeoCoordinate
        var value: Value
    }

    private var cells: [Cell: [Int64]] = [:]
    private var entries: [Int64: Entry] = [:]

    package init() {}

    /// How many points the grid holds.
    package var count: Int { entries.count }

    /// Puts the point `key` in `band` at `point` with `value`, moving it from where it was.
    package mutating func set(_ key: Int64, band: Int64, at point: GeoCoordinate, value: Value) {
        let cell = Self.cell(band: band, lat: point.lat, lon: point.lon)
        if let old = entries[key]?.cell, old != cell { removeFromCell(key, old) }
        if entries[key]?.cell != cell { cells[cell, default: []].append(key) }
        entries[key] = Entry(cell: cell, point: point, value: value)
    }

    /// Removes the point `key`, if there is one.
    package mutating func remove(_ key: Int64) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        removeFromCell(key, entry.cell)
    }

    /// How many cells `box` covers.
    package static func cellCount(of box: LatLonBox) -> Int {
        let rows = Int(row(box.north)) - Int(row(box.south)) + 1
        let columns = Int(column(box.east)) - Int(column(box.west)) + 1
        return rows * columns
    }

    /// Calls `body` with each point of `band` inside `box` (edges included) and its value.
    package func forEach(in box: LatLonBox, band: Int64, _ body: (GeoCoordinate, Value) throws -> Void) rethrows {
        for row in Self.row(box.south)...Self.row(box.north) {
            for column in Self.column(box.west)...Self.column(box.east) {
                guard let keys = cells[Cell(band: band, row: row, column: column)] else { continue }
                for key in keys {
                    guard let entry = entries[key], box.contains(entry.point) else { continue }
                    try body(entry.point, entry.value)
                }
            }
        }
    }

    private mutating func removeFromCell(_ key: Int64, _ cell: Cell) {
        guard var keys = cells[cell], let index = keys.firstIndex(of: key) else { return }
        keys.swapAt(index, keys.count - 1)
        keys.removeLast()
        cells[cell] = keys.isEmpty ? nil : keys
    }

    private static func cell(band: Int64, lat: Double, lon: Double) -> Cell {
        Cell(band: band, row: row(lat), column: column(lon))
    }

    private static func row(_ lat: Double) -> Int32 { Int32(((lat + 90) / cellDegrees).rounded(.down)) }
    private static func column(_ lon: Double) -> Int32 { Int32(((lon + 180) / cellDegrees).rounded(.down)) }
}
