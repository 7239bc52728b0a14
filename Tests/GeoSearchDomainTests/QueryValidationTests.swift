import Geo
import GeoSearchDomain
import Testing

/// One bad query and the one problem it must be told about.
struct BadQuery: CustomTestStringConvertible, Sendable {
    let query: [String: String]
    let field: String
    let problem: String

    var testDescription: String { "\(query) → \(field) \(problem)" }
}

@Suite("query validation")
struct QueryValidationTests {
    static let sanFrancisco = ["lat": "37.7749", "lon": "-122.4194"]

    static let badNearby: [BadQuery] = [
        BadQuery(query: ["lon": "-122.4194"], field: "lat", problem: "is required"),
        BadQuery(query: ["lat": "37.7749"], field: "lon", problem: "is required"),
        BadQuery(query: ["lat": "  ", "lon": "-122.4194"], field: "lat", problem: "is required"),
        BadQuery(query: ["lat": "90.0001", "lon": "0"], field: "lat", problem: "must be between -90 and 90"),
        BadQuery(query: ["lat": "-91", "lon": "0"], field: "lat", problem: "must be between -90 and 90"),
        BadQuery(query: ["lat": "0", "lon": "180.5"], field: "lon", problem: "must be between -180 and 180"),
        BadQuery(query: ["lat": "0", "lon": "-181"], field: "lon", problem: "must be between -180 and 180"),
        BadQuery(query: ["lat": "north", "lon": "0"], field: "lat", problem: "must be a number"),
        BadQuery(query: ["lat": "nan", "lon": "0"], field: "lat", problem: "must be a number"),
        BadQuery(query: ["lat": "0", "lon": "inf"], field: "lon", problem: "must be a number"),
        BadQuery(query: ["lat": "1e999", "lon": "0"], field: "lat", problem: "must be a number"),
        BadQuery(query: ["lat": "0x10", "lon": "0"], field: "lat", problem: "must be a number"),
        BadQuery(query: ["lat": "1,5", "lon": "0"], field: "lat", problem: "must be a number"),
        BadQuery(query: sanFrancisco.merging(["radius": "-1"]) { $1 }, field: "radius", problem: "must not be negative"),
        BadQuery(query: sanFrancisco.merging(["radius": "five"]) { $1 }, field: "radius", problem: "must be a number"),
        BadQuery(query: sanFrancisco.merging(["radius": "20000.001"]) { $1 }, field: "radius", problem: "must be at most 20000"),
        BadQuery(query: sanFrancisco.merging(["radius": "20000.5", "unit": "mi"]) { $1 }, field: "radius", problem: "must be at most 20000"),
        BadQuery(query: sanFrancisco.merging(["radius": "5", "unit": "furlongs"]) { $1 }, field: "unit", problem: "must be km or mi"),
    ]

    @Test("each bad or missing nearby field is refused with its problem", arguments: badNearby)
    func badNearbyField(bad: BadQuery) {
        #expect(throws: GeoSearchError.invalid([bad.field: [bad.problem]])) { try NearbyQuery.parse(bad.query) }
    }

    @Test("every bad or missing nearby field is listed at once")
    func everyNearbyProblem() {
        #expect(
            throws: GeoSearchError.invalid([
                "lat": ["is required"],
                "lon": ["must be between -180 and 180"],
                "radius": ["must not be negative"],
                "unit": ["must be km or mi"],
            ])
        ) { try NearbyQuery.parse(["lon": "200", "radius": "-3", "unit": "yards"]) }
    }

    @Test("a good nearby query becomes a typed query with its radius in metres")
    func goodNearby() throws {
        let query = try NearbyQuery.parse(["lat": " 37.7749 ", "lon": "-122.4194", "radius": "3", "unit": "MI"])
        #expect(query.center == point(37.7749, -122.4194))
        #expect(query.radiusMeters == 3 * 1_609.344)
        #expect(query.unit == .miles)
        #expect(try NearbyQuery.parse(["lat": "-90", "lon": "180", "radius": "20000"]).radiusMeters == 20_000_000)
        // One bound in either unit, as the OpenAPI document states it.
        #expect(try NearbyQuery.parse(["lat": "-90", "lon": "180", "radius": "20000", "unit": "mi"]).radiusMeters == 20_000 * 1_609.344)
        #expect(try NearbyQuery.parse(["lat": "0", "lon": "0", "radius": "12000", "unit": "mi"]).radiusMeters == 12_000 * 1_609.344)
        #expect(try NearbyQuery.parse(["lat": "0", "lon": "0", "radius": "0"]).radiusMeters == 0)
    }

    @Test("without a radius a nearby query covers 10 km, in whichever unit it names")
    func defaultRadius() throws {
        #expect(try NearbyQuery.parse(Self.sanFrancisco).radiusMeters == 10_000)
        #expect(try abs(NearbyQuery.parse(Self.sanFrancisco.merging(["unit": "mi"]) { $1 }).radiusMeters - 10_000) < 1e-9)
    }

    @Test("a nearby query finds points on its edge and not beyond")
    func nearbyContains() throws {
        let query = try NearbyQuery.parse(["lat": "37.7749", "lon": "-122.4194", "radius": "5"])
        for bearing in [0.0, 90, 180, 270] {
            #expect(query.contains(destination(from: query.center, bearing: bearing, meters: 4_999)))
            #expect(!query.contains(destination(from: query.center, bearing: bearing, meters: 5_001)))
        }
    }

    @Test("each bad or missing map-box field is refused, all at once")
    func badArea() {
        #expect(
            throws: GeoSearchError.invalid(["swLat": ["is required"], "swLon": ["is required"], "neLat": ["is required"], "neLon": ["is required"]])
        ) {
            try AreaQuery.parse([:])
        }
        #expect(throws: GeoSearchError.invalid(["swLat": ["must be between -90 and 90"], "neLon": ["must be a number"]])) {
            try AreaQuery.parse(["swLat": "-95", "swLon": "0", "neLat": "10", "neLon": "east"])
        }
        #expect(throws: GeoSearchError.invalid(["neLat": ["must not be south of swLat"]])) {
            try AreaQuery.parse(["swLat": "10", "swLon": "0", "neLat": "9", "neLon": "1"])
        }
    }

    @Test("coordinates out of range or not finite are not coordinates")
    func coordinateRanges() {
        #expect(GeoCoordinate(lat: 90, lon: -180) != nil && GeoCoordinate(lat: -90, lon: 180) != nil)
        for (lat, lon) in [(90.000_001, 0.0), (-90.1, 0), (0, 180.000_001), (0, -180.1), (.nan, 0), (0, .infinity), (-.infinity, 0)] {
            #expect(GeoCoordinate(lat: lat, lon: lon) == nil, "\(lat), \(lon)")
        }
    }

    @Test("a radius given in code is checked like one from a query")
    func programmaticRadius() {
        #expect(throws: GeoSearchError.invalid(["radius": ["must not be negative"]])) {
            try NearbyQuery(center: point(0, 0), radius: -1, unit: .kilometers)
        }
        #expect(throws: GeoSearchError.invalid(["radius": ["must be a number"]])) { try NearbyQuery(center: point(0, 0), radius: .nan, unit: .miles) }
    }
}
