import DonationsService
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Testing

@Suite("donations: organisations over HTTP")
struct OrganizationHTTPTests {
    @Test("an admin registers an organisation; anyone reads it by slug or id; members may not register", arguments: Backend.allCases)
    func registerAndRead(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            let admin = try await client.admin()
            let body: [String: Any] = [
                "name": "Against Malaria Foundation", "slug": "against-malaria-foundation", "kind": "charity",
                "mission": "Protect people from malaria with nets.", "homepage": "https://www.againstmalaria.com",
                "categories": ["Global-Health"], "tags": ["malaria", "nets"], "currency": "USD", "minimumDonationMinor": 100,
                "suggestedAmountsMinor": [500, 2_000], "rating": ["value": 4, "scale": 4, "source": "Charity Navigator", "date": "2026-01-10"],
            ]
            #expect(try await client.call(.post, "/v1/organizations", json: body).status == .unauthorized)
            #expect(try await client.call(.post, "/v1/organizations", token: try await client.token(), json: body).status == .forbidden)
            let created = try await client.call(.post, "/v1/organizations", token: admin, json: body)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.headers[.location] == "/v1/organizations/against-malaria-foundation")
            #expect(created.headers[.eTag] == "\"2\"")
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["verified"] as? Bool == false)
            #expect(created.json["categories"] as? [String] == ["global-health"])

            let bySlug = try await client.get("/v1/organizations/against-malaria-foundation", after: created.position)
            let byId = try await client.call(.get, "/v1/organizations/\(id)")
            #expect(bySlug.status == .ok)
            #expect(bySlug.json["id"] as? String == id)
            #expect(byId.json["slug"] as? String == "against-malaria-foundation")
            #expect((byId.json["rating"] as? [String: Any])?["source"] as? String == "Charity Navigator")
            #expect(try await client.call(.get, "/v1/organizations/no-such-thing").status == .notFound)

            let again = try await client.call(.post, "/v1/organizations", token: admin, json: body)
            #expect(again.status == .conflict, "a slug belongs to one organisation")
        }
    }

    @Test("bad fields get 422 listing each; missing ones 400 listing each")
    func validation() async throws {
        try await DonationsHarness().test { client in
            let admin = try await client.admin()
            let bad = try await client.call(
                .post, "/v1/organizations", token: admin,
                json: [
                    "name": "", "slug": "Bad Slug", "kind": "centre", "mission": "x", "currency": "dollars", "minimumDonationMinor": -5,
                    "location": ["lat": 100, "lon": 0], "homepage": "not a url",
                ])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.fieldErrors == ["name", "slug", "currency", "minimumDonationMinor", "location.lat", "address", "homepage"])
            let missing = try await client.call(.post, "/v1/organizations", token: admin, json: ["name": "X"])
            #expect(missing.status == .badRequest)
            #expect(missing.fieldErrors == ["slug", "kind", "mission", "currency", "minimumDonationMinor"])
            let wrongType = try await client.call(.post, "/v1/organizations", token: admin, json: ["name": 5])
            #expect(wrongType.status == .badRequest)
            #expect(wrongType.headers[.contentType] == "application/problem+json")
            // A value outside a field's set is refused with 400, naming the field and the values it takes.
            let unknownKind = try await client.call(
                .post, "/v1/organizations", token: admin,
                json: ["name": "Shop", "slug": "shop", "kind": "shop", "mission": "x", "currency": "USD", "minimumDonationMinor": 100])
            #expect(unknownKind.status == .badRequest)
            #expect(unknownKind.fieldErrors == ["kind"])
            #expect(unknownKind.text.contains("charity, centre, both"), "\(unknownKind.text)")
            let unknownVisibility = try await client.donate(try await client.token(), to: "shop", 500, visibility: "secret")
            #expect(unknownVisibility.status == .badRequest)
            #expect(unknownVisibility.fieldErrors == ["visibility"])
            #expect(unknownVisibility.text.contains("public, anonymous"), "\(unknownVisibility.text)")
        }
    }

    @Test("browse by category, tag, kind and text, page by page with a cursor", arguments: Backend.allCases)
    func browse(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("malaria-consortium", categories: ["global-health"], tags: ["malaria"], name: "Malaria Consortium")
            try await client.organization("helen-keller", categories: ["global-health"], tags: ["vitamin-a"], name: "Helen Keller Intl")
            try await client.organization("give-directly", categories: ["poverty"], tags: ["cash"], name: "GiveDirectly")
            let last = try await client.organization(
                "mission-depot", kind: "centre", categories: ["reuse"], tags: ["furniture"], name: "Mission Depot",
                extra: ["acceptedCategories": ["Furniture"], "openingHours": [["day": "mon", "opens": "09:00", "closes": "17:00"]]])
            let position = try await client.call(.get, "/v1/organizations/\(last.key)").headers[.eTag]
            #expect(position != nil)

            func names(_ query: String) async throws -> [String] {
                let reply = try await client.call(.get, "/v1/organizations?\(query)")
                #expect(reply.status == .ok, "\(query): \(reply.text)")
                return reply.items.compactMap { $0["name"] as? String }
            }
            #expect(try await names("category=global-health") == ["Helen Keller Intl", "Malaria Consortium"])
            #expect(try await names("tag=cash") == ["GiveDirectly"])
            #expect(try await names("kind=centre") == ["Mission Depot"])
            #expect(try await names("q=malar") == ["Malaria Consortium"])
            #expect(try await names("q=vitamin") == ["Helen Keller Intl"])

            let centre = try await client.call(.get, "/v1/organizations/mission-depot")
            #expect((centre.json["directionsURL"] as? String)?.hasPrefix("https://maps.apple.com/?daddr=37.790000,-122.400000") == true)
            #expect(centre.json["acceptedCategories"] as? [String] == ["Furniture"])

            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.call(.get, "/v1/organizations?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                seen += page.items.compactMap { $0["name"] as? String }
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == ["GiveDirectly", "Helen Keller Intl", "Malaria Consortium", "Mission Depot"])

            let bad = try await client.call(.get, "/v1/organizations?limit=0&kind=shop&cursor=%%%&verified=maybe&q=%20!!")
            #expect(bad.status == .badRequest)
            #expect(bad.fieldErrors == ["limit", "kind", "cursor", "verified", "q"])
        }
    }

    @Test("updates need the current If-Match; verification and estimates are admin only; estimates are versioned", arguments: Backend.allCases)
    func updateVerifyEstimate(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            let admin = try await client.admin()
            let id = try await client.organization("deworm", verified: false)
            #expect(
                try await client.call(.patch, "/v1/organizations/\(id.key)", token: admin, json: ["name": "Deworm"]).status == .preconditionRequired)
            let stale = try await client.call(
                .patch, "/v1/organizations/\(id.key)", token: admin, json: ["name": "Deworm"], headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.headers[.eTag] == "\"2\"")
            // One that does not exist is not found, whatever version the client names.
            let unknown = try await client.call(
                .patch, "/v1/organizations/\(UUID().uuidString.lowercased())", token: admin, json: ["name": "Deworm"], headers: [.ifMatch: "\"1\""])
            #expect(unknown.status == .notFound)
            let renamed = try await client.call(
                .patch, "/v1/organizations/deworm", token: admin, json: ["name": "Deworm the World"],
                headers: [.ifMatch: "\"2\""])
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(renamed.json["name"] as? String == "Deworm the World")
            #expect(renamed.headers[.eTag] == "\"3\"")
            let slugChange = try await client.call(
                .patch, "/v1/organizations/deworm", token: admin, json: ["slug": "other"], headers: [.ifMatch: "\"3\""])
            #expect(slugChange.status == .unprocessableContent)

            let member = try await client.token()
            #expect(
                try await client.call(.put, "/v1/organizations/deworm/verification", token: member, json: ["verified": true]).status == .forbidden)
            let verified = try await client.call(.put, "/v1/organizations/deworm/verification", token: admin, json: ["verified": true])
            #expect(verified.json["verified"] as? Bool == true)

            let estimate: [String: Any] = [
                "outcomeUnit": "child dewormed for a year", "costPerOutcomeMinor": 100, "currency": "USD",
                "source": "GiveWell", "sourceURL": "https://www.givewell.org", "publishedOn": "2023-11",
            ]
            #expect(
                try await client.call(.post, "/v1/organizations/deworm/impact-estimates", token: member, json: estimate, key: "e1").status
                    == .forbidden)
            let first = try await client.call(.post, "/v1/organizations/deworm/impact-estimates", token: admin, json: estimate, key: "e1")
            #expect(first.status == .created, "\(first.text)")
            var newer = estimate
            newer["costPerOutcomeMinor"] = 120
            newer["publishedOn"] = "2024-11"
            let second = try await client.call(.post, "/v1/organizations/deworm/impact-estimates", token: admin, json: newer, key: "e2")
            let read = try await client.get("/v1/organizations/deworm", after: second.position)
            let estimates = read.json["impactEstimates"] as? [[String: Any]] ?? []
            #expect(estimates.compactMap { $0["costPerOutcomeMinor"] as? Int } == [120, 100], "the newest first, the old one kept")
            let listed = try await client.get("/v1/organizations?q=deworm", after: second.position)
            let inList = (listed.json["items"] as? [[String: Any]])?.first { $0["slug"] as? String == "deworm" }
            #expect(
                (inList?["impactEstimates"] as? [[String: Any]])?.compactMap { $0["costPerOutcomeMinor"] as? Int } == [120, 100],
                "the list answers each organisation's estimates too")
            let bad = try await client.call(
                .post, "/v1/organizations/deworm/impact-estimates", token: admin,
                json: ["outcomeUnit": "", "costPerOutcomeMinor": 0, "currency": "x", "source": "", "publishedOn": "soon"], key: "e3")
            #expect(bad.status == .unprocessableContent)
            #expect(bad.fieldErrors == ["outcomeUnit", "costPerOutcomeMinor", "currency", "source", "publishedOn"])
        }
    }

    @Test("issue 21: no q makes the organisations a 500; a prepend letter glued to a quote is an ordinary search, 100 KB a 400")
    func hostileSearches() async throws {
        try await DonationsHarness().test { client in
            try await client.organization("malaria-consortium", name: "Malaria Consortium")
            #expect(try await client.call(.get, "/v1/organizations?q=%E0%B5%8E%22").status == .ok)
            #expect(try await client.call(.get, "/v1/organizations?q=\(String(repeating: "a", count: 100_000))").fieldErrors == ["q"])
            for q in [
                "%22", "%22%22", "mil%00k", "%E2%80%8F%22mil%E2%80%8E", "%CC%81%22", "%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7%22", "NEAR(%22",
                "a%20OR%20NOT%20%5E:*",
            ] {
                let reply = try await client.call(.get, "/v1/organizations?q=\(q)")
                #expect(reply.status == .ok || (reply.status == .badRequest && reply.fieldErrors.contains("q")), "\(q): \(reply.text)")
            }
        }
    }
}
