import Foundation
import HTTPTypes
import ListingsDomain
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("listings: declared bounds")
struct ListingsBoundsTests {
    @Test("every body field and query parameter declares a bound")
    func everythingBounded() async throws {
        try await ListingsHarness().test { client in
            let bounds = try await client.bounds()
            #expect(bounds.unbounded.isEmpty)
        }
    }

    @Test("a listing at its declared bounds is posted; one past a bound gets 422 naming the field")
    func listingBody() async throws {
        try await ListingsHarness().test { client in
            let bounds = try await client.bounds()
            let owner = try await client.person()
            let route = "POST /v1/listings"
            let title = try bounds.bound("maxLength", of: route, body: "title")
            let price = try bounds.bound("maximum", of: route, body: "price.amountMinor")
            let images = try bounds.bound("maxItems", of: route, body: "imageIds")
            _ = try await client.post(
                ["title": String(repeating: "t", count: title), "price": ["amountMinor": price, "currency": "EUR"]], as: owner)
            let past: [String: [String: Any]] = [
                "title": ["title": String(repeating: "t", count: title + 1)],
                "price.amountMinor": ["price": ["amountMinor": price + 1, "currency": "EUR"]],
                "imageIds": ["imageIds": (0...images).map { _ in UUID().uuidString }],
            ]
            for (field, fields) in past {
                let reply = try await client.call(.post, "/v1/listings", as: owner, json: ListingsFixtures.listing.merging(fields) { $1 })
                #expect(reply.status == .unprocessableContent && reply.fieldErrors.contains(field), "\(field): \(reply.status) \(reply.text)")
            }
        }
    }

    @Test("the feed's limit and q at their declared bounds are answered; one past gets 400")
    func feedQuery() async throws {
        try await ListingsHarness().test { client in
            let bounds = try await client.bounds()
            let limit = try bounds.bound("maximum", of: "GET /v1/listings", query: "limit")
            let q = try bounds.bound("maxLength", of: "GET /v1/listings", query: "q")
            #expect(try await client.get("/v1/listings?limit=\(limit)", after: nil).status == .ok)
            #expect(try await client.get("/v1/listings?limit=\(limit + 1)", after: nil).status == .badRequest)
            #expect(try await client.get("/v1/listings?q=\(String(repeating: "q", count: q))", after: nil).status == .ok)
            #expect(try await client.get("/v1/listings?q=\(String(repeating: "q", count: q + 1))", after: nil).status == .badRequest)
        }
    }

    @Test("the feed's status with one entry per status, within its declared length, is answered; one entry or character more gets 400")
    func feedStatus() async throws {
        try await ListingsHarness().test { client in
            let length = try await client.bounds().bound("maxLength", of: "GET /v1/listings", query: "status")
            let entries = FeedQuery.maximumStatuses
            let atBound = Array(repeating: "available", count: entries).joined(separator: ",")
            #expect(atBound.count <= length)
            #expect(try await client.get("/v1/listings?status=\(atBound)", after: nil).status == .ok)
            for past in [
                Array(repeating: "sold", count: entries + 1).joined(separator: ","),
                atBound + String(repeating: ",", count: length + 1 - atBound.count),
            ] {
                let reply = try await client.get("/v1/listings?status=\(past)", after: nil)
                #expect(reply.status == .badRequest && reply.fieldErrors == ["status"], "\(past): \(reply.text)")
            }
        }
    }
}

@Suite("listings: stated rules")
struct ListingsRulesTests {
    @Test("the feed's status states its list form as a pattern; a list it matches is answered, one it does not gets 400")
    func statusPattern() async throws {
        try await ListingsHarness().test { client in
            let document = try #require(
                try JSONSerialization.jsonObject(with: try await client.get("/openapi.json", after: nil).body) as? [String: Any])
            let feed = try #require(((document["paths"] as? [String: Any])?["/v1/listings"] as? [String: Any])?["get"] as? [String: Any])
            let status = try #require((feed["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "status" })
            let pattern = try #require((status["schema"] as? [String: Any])?["pattern"] as? String, "the status list's form is not in the schema")
            for (value, matches) in [
                ("available", true), ("sold,given,withdrawn", true), ("available,", false), ("available,,sold", false), ("new", false),
            ] {
                #expect((value.range(of: pattern, options: .regularExpression) != nil) == matches, "\(value)")
                let reply = try await client.get("/v1/listings?status=\(value)", after: nil)
                #expect(reply.status == (matches ? .ok : .badRequest), "\(value): \(reply.text)")
            }
        }
    }

    @Test("a method a literal route does not take gets 405 with that route's Allow, not its parameter sibling's")
    func literalRouteAllow() async throws {
        try await ListingsHarness().test { client in
            let changes = try await client.call(.options, "/v1/listings/changes")
            #expect(changes.status == .methodNotAllowed && changes.headers[.allow] == "GET", "\(changes.headers)")
            let listing = try await client.call(.options, "/v1/listings/\(UUID().uuidString)")
            #expect(listing.status == .methodNotAllowed && listing.headers[.allow] == "DELETE, GET, PATCH", "\(listing.headers)")
        }
    }
}

extension ListingsHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await get("/openapi.json", after: nil).body)
    }
}
