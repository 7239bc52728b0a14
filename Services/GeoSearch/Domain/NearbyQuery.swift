import Geo

/// "What is near this point": a checked centre and radius
/// (`lat`, `lon`, `radius`, `unit=km|mi`).
public struct NearbyQuery: Sendable, Hashable {
    /// Where distances are measured from.
    public let center: GeoCoordinate
    /// How far from the centre a result may be, in metres: up to ``maximumRadius`` in ``unit``.
    public let radiusMeters: Double
    /// The unit the radius was asked in, for echoing it back.
    public let unit: DistanceUnit

    /// 20,000 in the query's unit, km or mi: either is about the whole Earth (half its
    /// circumference is 20,004 km), and one number for both units is a bound a schema can state.
    public static let maximumRadius = 20_000.0
    /// The radius when a query names none: 10 km, a neighbourhood and the next one over.
    public static let defaultRadiusMeters = 10_000.0

    /// A query of `radius` in `unit` around `center`; `.invalid` with a `radius` problem when
    /// the radius is negative, not finite, or more than 20,000 (km or mi).
    public init(center: GeoCoordinate, radius: Double, unit: DistanceUnit) throws(GeoSearchError) {
        if let problem = Self.radiusProblem(radius, unit: unit) { throw .invalid(["radius": [problem]]) }
        self.center = center
        self.radiusMeters = radius * unit.meters
        self.unit = unit
    }

    /// What is wrong with a radius in a unit, or nil when it is acceptable.
    public static func radiusProblem(_ radius: Double, unit: DistanceUnit) -> String? {
        if !radius.isFinite { return "must be a number" }
        if radius < 0 { return "must not be negative" }
        if radius > maximumRadius { return "must be at most 20000" }
        return nil
    }

    /// Reads a query string's fields; `.invalid` lists every bad or missing field at once.
    /// `lat` and `lon` are required; `radius` defaults to 10 km and `unit` to `km`.
    public static func parse(_ query: [String: String]) throws(GeoSearchError) -> NearbyQuery {
        var fields = QueryFields(query)
        let center = fields.coordinate(lat: "lat", lon: "lon")
        let radius = fields.number("radius", required: false)
        var unit: DistanceUnit? = .kilometers
        if let text = fields.text("unit") {
            unit = DistanceUnit(rawValue: text.lowercased())
            if unit == nil { fields.report("must be km or mi", for: "unit") }
        }
        if let radius {
            // Without a known unit only the sign can be judged.
            let problem = unit.map { radiusProblem(radius, unit: $0) } ?? (radius < 0 ? "must not be negative" : nil)
            if let problem { fields.report(problem, for: "radius") }
        }
        guard fields.problems.isEmpty, let center, let unit else { throw .invalid(fields.problems) }
        return try NearbyQuery(center: center, radius: radius ?? defaultRadiusMeters / unit.meters, unit: unit)
    }

    /// The boxes to ask a latitude/longitude index for; see `LatLonBox.covering(center:radiusMeters:)`.
    public var indexBoxes: [LatLonBox] {
        LatLonBox.covering(center: center, radiusMeters: radiusMeters)
    }

    /// Whether a point is within the radius, edge included.
    public func contains(_ point: GeoCoordinate) -> Bool {
        center.distanceMeters(to: point) <= radiusMeters
    }
}
