import Geo

/// Points kept in memory by band, on a grid of cells a hundredth of a degree across (about
/// 1.1 km north to south), so that the points of one band in a box are found by looking at
/// the few cells the box covers. Each point has a key (a row id) and a value.
///
/// Inlinable, so that a search in another module is specialized for its values: unspecialized,
/// every cell and point went through generic metadata, a fifth of a search's time.
public struct PlaceGrid<Value: Sendable>: Sendable {
    /// The side of a cell, in degrees.
    @inlinable public static var cellDegrees: Double { 0.01 }

    @usableFromInline
    struct Cell: Hashable, Sendable {
        @usableFromInline var band: Int64
        @usableFromInline var row: Int32
        @usableFromInline var column: Int32

        @inlinable init(band: Int64, row: Int32, column: Int32) {
            self.band = band
            self.row = row
            self.column = column
        }
    }

    /// A point as its cell holds it, so that a search reads the cell alone.
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var key: Int64
        @usableFromInline var point: GeoCoordinate
        @usableFromInline var value: Value

        @inlinable init(key: Int64, point: GeoCoordinate, value: Value) {
            self.key = key
            self.point = point
            self.value = value
        }
    }

    @usableFromInline var cells: [Cell: [Slot]] = [:]
    /// Where each point is.
    @usableFromInline var locations: [Int64: Cell] = [:]

    @inlinable public init() {}

    /// How many points the grid holds.
    @inlinable public var count: Int { locations.count }

    /// Puts the point `key` in `band` at `point` with `value`, moving it from where it was.
    @inlinable
    public mutating func set(_ key: Int64, band: Int64, at point: GeoCoordinate, value: Value) {
        let cell = Cell(band: band, row: Self.row(point.lat), column: Self.column(point.lon))
        if let old = locations[key] { removeFromCell(key, old) }
        locations[key] = cell
        cells[cell, default: []].append(Slot(key: key, point: point, value: value))
    }

    /// Removes the point `key`, if there is one.
    @inlinable
    public mutating func remove(_ key: Int64) {
        guard let cell = locations.removeValue(forKey: key) else { return }
        removeFromCell(key, cell)
    }

    /// How many cells `box` covers.
    @inlinable
    public static func cellCount(of box: LatLonBox) -> Int {
        let rows = Int(row(box.north)) - Int(row(box.south)) + 1
        let columns = Int(column(box.east)) - Int(column(box.west)) + 1
        return rows * columns
    }

    /// Calls `body` with each point of `band` inside `box` (edges included) and its value.
    @inlinable
    public func forEach(in box: LatLonBox, band: Int64, _ body: (GeoCoordinate, Value) throws -> Void) rethrows {
        for row in Self.row(box.south)...Self.row(box.north) {
            for column in Self.column(box.west)...Self.column(box.east) {
                guard let slots = cells[Cell(band: band, row: row, column: column)] else { continue }
                for slot in slots where box.contains(slot.point) {
                    try body(slot.point, slot.value)
                }
            }
        }
    }

    @inlinable
    mutating func removeFromCell(_ key: Int64, _ cell: Cell) {
        guard var slots = cells.removeValue(forKey: cell), let index = slots.firstIndex(where: { $0.key == key }) else { return }
        slots.swapAt(index, slots.count - 1)
        slots.removeLast()
        if !slots.isEmpty { cells[cell] = slots }
    }

    @inlinable static func row(_ lat: Double) -> Int32 { Int32(((lat + 90) / cellDegrees).rounded(.down)) }
    @inlinable static func column(_ lon: Double) -> Int32 { Int32(((lon + 180) / cellDegrees).rounded(.down)) }
}
