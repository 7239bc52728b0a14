import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("geo-search: declared bounds")
struct GeoSearchBoundsTests {
    @Test("every body field and query parameter declares a bound")
    func everythingBounded() async throws {
        try await GeoSearchHarness().test { client in
            let bounds = try await client.bounds()
            #expect(bounds.unbounded.isEmpty)
        }
    }

    @Test("nearby queries at their declared bounds are answered; one past a bound gets 400")
    func nearbyQuery() async throws {
        try await GeoSearchHarness().test { client in
            let bounds = try await client.bounds()
            let route = "GET /v1/nearby/listings"
            let limit = try bounds.bound("maximum", of: route, query: "limit")
            let radius = try bounds.bound("maximum", of: route, query: "radius")
            let category = try bounds.bound("maxLength", of: route, query: "category")
            for (query, field) in [
                ("limit=\(limit)", "limit"), ("radius=\(radius)", "radius"), ("radius=\(radius)&unit=mi", "radius"),
                ("category=\(String(repeating: "c", count: category))", "category"),
            ] {
                let reply = try await client.send(.get, "/v1/nearby/listings?lat=0&lon=0&\(query)", as: nil)
                #expect(reply.status == .ok, "\(field): \(reply.text)")
            }
            for (query, field) in [
                ("limit=\(limit + 1)", "limit"), ("radius=\(radius + 1)", "radius"),
                ("category=\(String(repeating: "c", count: category + 1))", "category"),
            ] {
                let reply = try await client.send(.get, "/v1/nearby/listings?lat=0&lon=0&\(query)", as: nil)
                #expect(reply.status == .badRequest && reply.fieldErrors == [field], "\(field): \(reply.text)")
            }
        }
    }

    @Test("an alert at its declared radius and name bounds is saved; one past a bound gets 422")
    func alertBody() async throws {
        try await GeoSearchHarness().test { client in
            let bounds = try await client.bounds()
            let radius = try bounds.bound("maximum", of: "POST /v1/alerts", body: "radius")
            let name = try bounds.bound("maxLength", of: "POST /v1/alerts", body: "name")
            let owner = UUID()
            let saved = try await client.send(
                .post, "/v1/alerts", as: owner,
                json: ["lat": 52.37, "lon": 4.89, "radius": radius, "name": String(repeating: "n", count: name)])
            #expect(saved.status == .created, "\(saved.text)")
            let past = try await client.send(
                .post, "/v1/alerts", as: owner,
                json: ["lat": 52.37, "lon": 4.89, "radius": radius + 1, "name": String(repeating: "n", count: name + 1)])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["radius", "name"], "\(past.text)")
        }
    }

    @Test("the document states an alert's smaller radius in miles (anyOf); at it the alert is saved, past it 422")
    func alertRadiusInMiles() async throws {
        try await GeoSearchHarness().test { client in
            let body = try #require(try await client.bounds().bodySchema(of: "POST /v1/alerts"))
            let branches = try #require(body["anyOf"] as? [[String: Any]], "the radius's bound in miles is not in the schema")
            let miles = try #require(
                branches.first { (($0["properties"] as? [String: Any])?["unit"] as? [String: Any])?["enum"] as? [String] == ["mi"] })
            #expect(miles["required"] as? [String] == ["unit"])
            let radius = try #require((((miles["properties"] as? [String: Any])?["radius"] as? [String: Any])?["maximum"] as? NSNumber)?.doubleValue)
            let owner = UUID()
            let saved = try await client.send(.post, "/v1/alerts", as: owner, json: ["lat": 52.37, "lon": 4.89, "radius": radius, "unit": "mi"])
            #expect(saved.status == .created, "\(saved.text)")
            let past = try await client.send(
                .post, "/v1/alerts", as: owner, json: ["lat": 52.37, "lon": 4.89, "radius": radius + 0.001, "unit": "mi"])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["radius"], "\(past.text)")
        }
    }
}

extension GeoSearchHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await send(.get, "/openapi.json", as: nil).body)
    }
}
