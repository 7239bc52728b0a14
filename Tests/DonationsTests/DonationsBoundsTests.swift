import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("donations: declared bounds")
struct DonationsBoundsTests {
    @Test("every body field and query parameter declares a bound, but those the service leaves open")
    func everythingBounded() async throws {
        try await DonationsHarness().test { client in
            let organization = ["homepage", "rating.value", "rating.scale", "openingHours", "acceptedCategories"]
            let expected = Set(["POST /v1/organizations", "PATCH /v1/organizations/{id}"].flatMap { route in organization.map { "\(route) body.\($0)" } })
                .union(["POST /v1/organizations/{id}/impact-estimates body.sourceURL", "POST /v1/wallet/top-ups body.cardNumber",
                        "GET /v1/organizations query.category", "GET /v1/organizations query.tag"])
            let bounds = try await client.bounds()
            #expect(bounds.unbounded == expected)
        }
    }

    @Test("an organisation at its declared name and tags bounds is registered; one past a bound gets 422")
    func organizationBody() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            let name = try bounds.bound("maxLength", of: "POST /v1/organizations", body: "name")
            let tags = try bounds.bound("maxItems", of: "POST /v1/organizations", body: "tags")
            try await client.organization("at-bounds", tags: (1...tags).map { "tag\($0)" }, name: String(repeating: "n", count: name))
            let past = try await client.call(.post, "/v1/organizations", token: try await client.admin(), json: [
                "name": String(repeating: "n", count: name + 1), "slug": "past-bounds", "kind": "charity", "mission": "Helps.",
                "currency": "USD", "minimumDonationMinor": 100, "tags": (0...tags).map { "tag\($0)" },
            ])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["name", "tags"], "\(past.text)")
        }
    }

    @Test("a top-up at its declared maximum is added, one past gets 422; a year past its maximum gets 400")
    func amountsAndYears() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            let amount = try bounds.bound("maximum", of: "POST /v1/wallet/top-ups", body: "amountMinor")
            let year = try bounds.bound("maximum", of: "GET /v1/donations/totals", query: "year")
            let token = try await client.token()
            try await client.topUp(token, amount)
            let past = try await client.call(.post, "/v1/wallet/top-ups", token: token, json: [
                "amountMinor": amount + 1, "currency": "USD", "cardNumber": DonationsHarness.Client.goodCard,
            ], key: UUID().uuidString)
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["amountMinor"], "\(past.text)")
            #expect(try await client.call(.get, "/v1/donations/totals?year=\(year)", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/donations/totals?year=\(year + 1)", token: token).status == .badRequest)
        }
    }
}

extension DonationsHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await call(.get, "/openapi.json").body)
    }
}
