import Geo

/// "What is on this map": the box from a south-west to a north-east corner
/// (`swLat`, `swLon`, `neLat`, `neLon`). Edges count as inside. When the west edge lies east
/// of the east edge (`swLon > neLon`), the box crosses the antimeridian.
public struct AreaQuery: Sendable, Hashable {
    /// The south-west corner.
    public let southWest: GeoCoordinate
    /// The north-east corner.
    public let northEast: GeoCoordinate

    /// The box between two corners; `.invalid` with an `neLat` problem when the north-east
    /// corner is south of the south-west one.
    public init(southWest: GeoCoordinate, northEast: GeoCoordinate) throws(GeoSearchError) {
        guard southWest.lat <= northEast.lat else { throw .invalid(["neLat": ["must not be south of swLat"]]) }
        self.southWest = southWest
        self.northEast = northEast
    }

    /// Reads a query string's fields; `.invalid` lists every bad or missing field at once.
    public static func parse(_ query: [String: String]) throws(GeoSearchError) -> AreaQuery {
        var fields = QueryFields(query)
        let southWest = fields.coordinate(lat: "swLat", lon: "swLon")
        let northEast = fields.coordinate(lat: "neLat", lon: "neLon")
        if let southWest, let northEast, southWest.lat > northEast.lat {
            fields.report("must not be south of swLat", for: "neLat")
        }
        guard fields.problems.isEmpty, let southWest, let northEast else { throw .invalid(fields.problems) }
        return try AreaQuery(southWest: southWest, northEast: northEast)
    }

    /// The box as one or two boxes that do not cross the antimeridian: two, either side of it,
    /// when `swLon > neLon`.
    public var boxes: [LatLonBox] {
        let (south, north) = (southWest.lat, northEast.lat)
        guard southWest.lon > northEast.lon else {
            return [LatLonBox(south: south, west: southWest.lon, north: north, east: northEast.lon)]
        }
        return [
            LatLonBox(south: south, west: southWest.lon, north: north, east: 180),
            LatLonBox(south: south, west: -180, north: north, east: northEast.lon),
        ]
    }

    /// Whether a point is on the map, edges included.
    public func contains(_ point: GeoCoordinate) -> Bool {
        boxes.contains { $0.contains(point) }
    }
}
