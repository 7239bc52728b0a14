import Foundation
import Geo
import GeoSearchDomain
import Testing

@Suite("alert criteria and keywords")
struct AlertCriteriaTests {
    @Test("a valid alert: radius in its unit, category and keywords kept, covers its circle only")
    func valid() throws {
        let criteria = try AlertCriteria.parse([
            "lat": "37.7749", "lon": "-122.4194", "radius": "2", "unit": "mi", "category": "Books", "q": "old maps",
        ])
        #expect(abs(criteria.radiusMeters - 3_218.688) < 1e-9)
        #expect(criteria.keywords?.words == ["old", "maps"])
        #expect(criteria.accepts(category: "books") && !criteria.accepts(category: "Toys"))
        #expect(criteria.covers(GeoCoordinate(lat: 37.7749 + 3_100 / 111_000, lon: -122.4194)!))
        #expect(!criteria.covers(GeoCoordinate(lat: 37.7749 + 3_400 / 111_000, lon: -122.4194)!))
        let defaults = try AlertCriteria.parse(["lat": "0", "lon": "179.99"])
        #expect(defaults.radiusMeters == 10_000 && defaults.category == nil && defaults.keywords == nil)
        #expect(defaults.accepts(category: "Anything"))
    }

    @Test("every bad field is named at once")
    func invalid() throws {
        #expect(
            throws: GeoSearchError.invalid([
                "lat": ["is required"], "lon": ["must be between -180 and 180"], "q": ["must have at most 10 words"],
                "name": ["must be at most 100 characters"],
            ])
        ) {
            try AlertCriteria.parse(["lon": "200", "q": "a b c d e f g h i j k", "name": String(repeating: "n", count: 101)])
        }
        #expect(throws: GeoSearchError.invalid(["radius": ["must be at most 100 km (62.137 mi) for an alert"]])) {
            try AlertCriteria.parse(["lat": "1", "lon": "1", "radius": "62.1371", "unit": "mi"])
        }
        // Each unit's bound itself is accepted: the document states these numbers.
        for unit in DistanceUnit.allCases {
            let radius = AlertCriteria.maximumRadius(in: unit)
            #expect(
                try AlertCriteria.parse(["lat": "1", "lon": "1", "radius": "\(radius)", "unit": unit.rawValue]).radiusMeters == radius * unit.meters)
        }
    }

    @Test("keywords are the words as written, split at white space, at most 10 and 200 scalars")
    func keywords() throws {
        #expect(try Keywords(" sofa AND\u{2003}\"bed\" NEAR(x)").words == ["sofa", "AND", "\"bed\"", "NEAR(x)"])
        #expect(throws: GeoSearchError.invalid(["q": ["must be at most 200 characters"]])) {
            try Keywords("a" + String(repeating: "\u{301}", count: 200))
        }
        #expect(throws: GeoSearchError.invalid(["q": ["must have at most 10 words"]])) {
            try Keywords((1...11).map(String.init).joined(separator: " "))
        }
        #expect(throws: GeoSearchError.invalid(["q": ["must be at most 200 characters"]])) { try Keywords(String(repeating: "a", count: 201)) }
    }
}

@Suite("the growing circle of nearest-first queries")
struct NearestSearchTests {
    @Test("starts small but never short of the cursor, grows at least twofold, stops at the query's radius")
    func radii() {
        #expect(NearestSearch.firstRadius(queryRadius: 5_000, cursorDistance: nil) == 312.5)
        #expect(NearestSearch.firstRadius(queryRadius: 400, cursorDistance: nil) == 50)
        #expect(NearestSearch.firstRadius(queryRadius: 30, cursorDistance: nil) == 30)
        #expect(NearestSearch.firstRadius(queryRadius: 5_000, cursorDistance: 2_000) == 2_500)
        #expect(NearestSearch.firstRadius(queryRadius: 20_000_000, cursorDistance: nil) == 2_000, "a whole-Earth radius starts at a neighbourhood")
        #expect(NearestSearch.nextRadius(after: 100, found: 0, needed: 21, queryRadius: 5_000) == 400)
        #expect(NearestSearch.nextRadius(after: 100, found: 20, needed: 21, queryRadius: 5_000) == 200)
        let scaled = NearestSearch.nextRadius(after: 100, found: 1, needed: 25, queryRadius: 5_000)
        #expect(abs(scaled - 650) < 1e-9)
        #expect(NearestSearch.nextRadius(after: 4_000, found: 1, needed: 25, queryRadius: 5_000) == 5_000)
    }
}
