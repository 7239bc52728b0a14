import DonationsDomain
import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("donations: declared bounds")
struct DonationsBoundsTests {
    @Test("every body field and query parameter declares a bound")
    func everythingBounded() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            #expect(bounds.unbounded.isEmpty)
        }
    }

    /// An https URL of `length` characters.
    static func url(_ length: Int) -> String {
        let base = "https://example.org/"
        return base + String(repeating: "p", count: length - base.count)
    }

    @Test("an organisation at its declared homepage, rating, opening hours and accepted categories bounds is registered; one past each gets 422")
    func organizationProfile() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            let route = "POST /v1/organizations"
            let homepage = try bounds.bound("maxLength", of: route, body: "homepage")
            let rating = try bounds.bound("maximum", of: route, body: "rating.scale")
            let hours = try bounds.bound("maxItems", of: route, body: "openingHours")
            let accepted = try bounds.bound("maxItems", of: route, body: "acceptedCategories")
            func rated(_ value: Int, of scale: Int) -> [String: Any] { ["value": value, "scale": scale, "source": "Evaluator", "date": "2026-01"] }
            func opening(_ count: Int) -> [[String: String]] {
                (0..<count).map { ["day": OrganizationDraft.days[$0 % 7], "opens": "09:00", "closes": "17:00"] }
            }
            func categories(_ count: Int) -> [String] { (0..<count).map { "category \($0)" } }
            try await client.organization(
                "at-bounds",
                extra: [
                    "homepage": Self.url(homepage), "rating": rated(rating, of: rating),
                    "openingHours": opening(hours), "acceptedCategories": categories(accepted),
                ])
            let past: [String: [String: Any]] = [
                "homepage": ["homepage": Self.url(homepage + 1)], "rating.scale": ["rating": rated(1, of: rating + 1)],
                "rating.value": ["rating": rated(rating + 1, of: rating)], "openingHours": ["openingHours": opening(hours + 1)],
                "acceptedCategories": ["acceptedCategories": categories(accepted + 1)],
            ]
            let admin = try await client.admin()
            for (field, fields) in past {
                let body: [String: Any] = [
                    "name": "Past", "slug": "past-bounds", "kind": "charity", "mission": "Helps.", "currency": "USD",
                    "minimumDonationMinor": 100,
                ]
                let reply = try await client.call(.post, "/v1/organizations", token: admin, json: body.merging(fields) { $1 })
                #expect(reply.status == .unprocessableContent && reply.fieldErrors == [field], "\(field): \(reply.status) \(reply.text)")
            }
        }
    }

    @Test("an impact estimate's source URL, a top-up's card number and the list's category and tag one past their declared bounds get 422 or 400")
    func urlCardAndFilters() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            let source = try bounds.bound("maxLength", of: "POST /v1/organizations/{id}/impact-estimates", body: "sourceURL")
            let card = try bounds.bound("maxLength", of: "POST /v1/wallet/top-ups", body: "cardNumber")
            let id = try await client.organization("estimated")
            let estimate = try await client.call(
                .post, "/v1/organizations/\(id.uuidString)/impact-estimates", token: try await client.admin(),
                json: [
                    "outcomeUnit": "net", "costPerOutcomeMinor": 500, "currency": "USD", "source": "Evaluator", "publishedOn": "2026",
                    "sourceURL": Self.url(source + 1),
                ], key: UUID().uuidString)
            #expect(estimate.status == .unprocessableContent && estimate.fieldErrors == ["sourceURL"], "\(estimate.text)")
            let goodCard = DonationsHarness.Client.goodCard
            let token = try await client.token()
            let padded = goodCard + String(repeating: " ", count: card - goodCard.count)
            func topUp(_ cardNumber: String) async throws -> TestReply {
                try await client.call(
                    .post, "/v1/wallet/top-ups", token: token,
                    json: ["amountMinor": 100, "currency": "USD", "cardNumber": cardNumber], key: UUID().uuidString)
            }
            let atBound = try await topUp(padded)
            #expect(atBound.status == .created, "\(atBound.text)")
            let past = try await topUp(padded + " ")
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["cardNumber"], "\(past.text)")
            for name in ["category", "tag"] {
                let length = try bounds.bound("maxLength", of: "GET /v1/organizations", query: name)
                #expect(try await client.call(.get, "/v1/organizations?\(name)=\(String(repeating: "c", count: length))").status == .ok)
                let reply = try await client.call(.get, "/v1/organizations?\(name)=\(String(repeating: "c", count: length + 1))")
                #expect(reply.status == .badRequest && reply.fieldErrors == [name], "\(name): \(reply.text)")
            }
        }
    }

    @Test("an organisation at its declared name and tags bounds is registered; one past a bound gets 422")
    func organizationBody() async throws {
        try await DonationsHarness().test { client in
            let bounds = try await client.bounds()
            let name = try bounds.bound("maxLength", of: "POST /v1/organizations", body: "name")
            let tags = try bounds.bound("maxItems", of: "POST /v1/organizations", body: "tags")
            try await client.organization("at-bounds", tags: (1...tags).map { "tag\($0)" }, name: String(repeating: "n", count: name))
            let past = try await client.call(
                .post, "/v1/organizations", token: try await client.admin(),
                json: [
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
            let past = try await client.call(
                .post, "/v1/wallet/top-ups", token: token,
                json: [
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
