import Foundation

/// One cell of the grid that hides exact locations: rows of equal height in latitude, each
/// cut into equal columns no wider than a cell is tall at the row's equatorward edge, so
/// that every cell is at most `sideMeters` by `sideMeters`. Rows meet the poles and the
/// columns meet the antimeridian exactly.
struct PrivacyCell: Equatable {
    let south: Double
    let north: Double
    let west: Double
    let east: Double

    /// The largest side of a cell, in metres on the mean sphere. Its diagonal, 481 m, plus
    /// the sphere's 0.56 % against the ellipsoid stays under `PublicLocation.maximumDisplacementMeters`.
    static let sideMeters = 340.0
    /// Rows from the equator to a pole, chosen so that a whole number of them fits.
    static let rowsPerHemisphere = Int((90 * Earth.metersPerDegree / sideMeters).rounded(.up))

    /// The cell that contains `point`; a point on a shared edge belongs to the cell north or
    /// east of it, except on the north pole and on the eastern meridian 180.
    init(containing point: GeoCoordinate) {
        let rows = Self.rowsPerHemisphere
        let row = min(rows - 1, Int((point.lat / 90 * Double(rows)).rounded(.down)))
        south = 90 * Double(row) / Double(rows)
        north = 90 * Double(row + 1) / Double(rows)
        let equatorward = row >= 0 ? south : north
        let parallel = 360 * cos(equatorward * .pi / 180) * Earth.metersPerDegree
        let columns = max(1, Int((parallel / Self.sideMeters).rounded(.up)))
        let column = min(columns - 1, Int(((point.lon + 180) / 360 * Double(columns)).rounded(.down)))
        west = -180 + 360 * Double(column) / Double(columns)
        east = -180 + 360 * Double(column + 1) / Double(columns)
    }

    /// The point `northward` and `eastward` of the way across the cell (each 0..<1) from its south-west corner.
    func point(northward: Double, eastward: Double) -> GeoCoordinate {
        GeoCoordinate(checkedLat: south + northward * (north - south), lon: west + eastward * (east - west))
    }
}
