import Foundation
import Geo
import GeoSearchDomain
import Testing

@Suite("alert criteria and keywords")
struct AlertCriteriaTests {
    @Test("a valid alert: radius in its unit, category and keywords kept, covers its circle only")
    func valid() throws {
        let criteria = try AlertCriteria.parse(["lat": "37.7749", "lon": "-122.4194", "radius": "2", "unit": "mi", "category": "Books", "q": "old maps"])
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
    func invalid() {
        #expect(throws: GeoSearchError.invalid([
            "lat": ["is required"], "lon": ["must be between -180 and 180"], "q": ["must contain a word"],
            "name": ["must be at most 100 characters"],
        ])) {
            try AlertCriteria.parse(["lon": "200", "q": "?!", "name": String(repeating: "n", count: 101)])
        }
        #expect(throws: GeoSearchError.invalid(["radius": ["must be at most 100 km (62 mi) for an alert"]])) {
            try AlertCriteria.parse(["lat": "1", "lon": "1", "radius": "63", "unit": "mi"])
        }
    }

    @Test("keywords become a full-text query no input can break")
    func keywords() throws {
        #expect(try Keywords("sofa AND \"bed\" NEAR(x)").fullTextQuery == "\"sofa\"* \"AND\"* \"bed\"* \"NEAR\"* \"x\"*")
        #expect(throws: GeoSearchError.invalid(["q": ["must have at most 10 words"]])) {
            try Keywords((1...11).map(String.init).joined(separator: " "))
        }
        #expect(throws: GeoSearchError.invalid(["q": ["must be at most 200 characters"]])) { try Keywords(String(repeating: "a", count: 201)) }
    }
}
