import Geo

/// A closed range of latitudes by a closed range of longitudes that does not cross the
/// antimeridian (`west <= east`): the shape a latitude/longitude index such as an R*Tree is
/// asked for. Edges count as inside.
public struct LatLonBox: Sendable, Hashable {
    /// Degrees: the southern edge, at most `north`.
    public let south: Double
    /// Degrees: the western edge, at most `east`.
    public let west: Double
    /// Degrees: the northern edge.
    public let north: Double
    /// Degrees: the eastern edge.
    public let east: Double

    /// A box from its edges, in degrees; the caller keeps `south <= north` and `west <= east`.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Whether the point lies inside or on an edge.
    public func contains(_ point: GeoCoordinate) -> Bool {
        (south...north).contains(point.lat) && (west...east).contains(point.lon)
    }
}
