import Contracts
import DonationsService
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import ServiceTestSupport
import Testing

@Suite("donations: impact, sharing and supporters")
struct ImpactAndSharingTests {
    @Test("impact counts each donation at the estimate in force when it was made, and all at today's", arguments: Backend.allCases)
    func impact(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            let admin = try await client.admin()
            try await client.organization("nets-for-all", minimum: 100)
            let estimate: [String: Any] = [
                "outcomeUnit": "net distributed", "costPerOutcomeMinor": 500, "currency": "USD", "source": "Test source",
                "publishedOn": "2026-01",
            ]
            #expect(
                try await client.call(.post, "/v1/organizations/nets-for-all/impact-estimates", token: admin, json: estimate, key: "a").status
                    == .created)
            let token = try await client.token()
            try await client.topUp(token, 10_000)
            client.clock.set(DonationsHarness.start.addingTimeInterval(60))
            #expect(try await client.donate(token, to: "nets-for-all", 1_000).status == .created)
            var cheaper = estimate
            cheaper["costPerOutcomeMinor"] = 250
            cheaper["publishedOn"] = "2027-02"
            client.clock.set(DonationsHarness.start.addingTimeInterval(120))
            #expect(
                try await client.call(.post, "/v1/organizations/nets-for-all/impact-estimates", token: admin, json: cheaper, key: "b").status
                    == .created)
            client.clock.set(DonationsHarness.start.addingTimeInterval(180))
            let second = try await client.donate(token, to: "nets-for-all", 500)

            let impact = try await client.get("/v1/impact", token: token, after: second.position)
            let entry = try #require(impact.items.first)
            #expect(entry["donatedMinor"] as? Int == 1_500)
            #expect(entry["outcomeUnit"] as? String == "net distributed")
            let atDonation = try #require(entry["atDonation"] as? [String: Any])
            #expect(atDonation["outcomes"] as? Double == 4, "1000/500 + 500/250")
            #expect((atDonation["estimates"] as? [Any])?.count == 2)
            let today = try #require(entry["today"] as? [String: Any])
            #expect(today["outcomes"] as? Double == 6, "1500/250")
            #expect(((today["estimates"] as? [[String: Any]])?.first?["source"]) as? String == "Test source")
        }
    }

    @Test(
        "a public donation can be shared and shows in the feed and among supporters; an anonymous one cannot; a photo is the poster's own",
        arguments: Backend.allCases)
    func sharing(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("shared-cause", minimum: 100)
            let donor = UUID(), shy = UUID()
            let token = try await client.token(donor), shyToken = try await client.token(shy)
            try await client.topUp(token, 5_000)
            try await client.topUp(shyToken, 5_000)
            let made = try await client.donate(token, to: "shared-cause", 1_000)
            let id = try #require((made.json["donation"] as? [String: Any])?["id"] as? String)
            let hidden = try await client.donate(shyToken, to: "shared-cause", 1_000, visibility: "anonymous")
            let hiddenId = try #require((hidden.json["donation"] as? [String: Any])?["id"] as? String)

            let post = try await client.call(.post, "/v1/donations/\(id)/posts", token: token, json: ["caption": "Nets for a village!"], key: "p1")
            #expect(post.status == .created, "\(post.text)")
            let again = try await client.call(.post, "/v1/donations/\(id)/posts", token: token, json: ["caption": "Nets for a village!"], key: "p1")
            #expect(again.json["id"] as? String == post.json["id"] as? String)
            #expect(
                try await client.call(.post, "/v1/donations/\(hiddenId)/posts", token: shyToken, json: ["caption": "x"], key: "p2").status
                    == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/donations/\(id)/posts", token: shyToken, json: ["caption": "x"], key: "p3").status == .notFound)
            #expect(
                try await client.call(.post, "/v1/donations/\(id)/posts", token: token, json: ["caption": " "], key: "p4").status
                    == .unprocessableContent)

            let feed = try await client.get("/v1/donation-posts", after: post.position)
            #expect(feed.items.count == 1)
            #expect(feed.items.first?["caption"] as? String == "Nets for a village!")
            let supporters = try await client.get("/v1/organizations/shared-cause/supporters", after: hidden.position)
            #expect(supporters.items.compactMap { ($0["accountId"] as? String)?.lowercased() } == [donor.key], "anonymous donors are not listed")

            // A post's photo, like an organisation's logo, is one its author uploaded.
            let theirs = try await StoredImages.record(by: UUID(), in: client.runtime.store)
            let borrowed = try await client.call(
                .post, "/v1/donations/\(id)/posts", token: token, json: ["caption": "Look", "imageId": theirs.uuidString], key: "p5")
            #expect(borrowed.status == .unprocessableContent)
            #expect(Set((borrowed.json["errors"] as? [String: Any] ?? [:]).keys) == ["imageId"])
            let logo = try await client.call(
                .post, "/v1/organizations", token: try await client.token(role: .admin),
                json: [
                    "name": "Borrowed", "slug": "borrowed-logo", "kind": "charity", "mission": "Helps.", "currency": "USD",
                    "minimumDonationMinor": 100, "logoImageId": theirs.uuidString,
                ])
            #expect(logo.status == .unprocessableContent, "\(logo.text)")
            let mine = try await StoredImages.record(by: donor, in: client.runtime.store)
            let pictured = try await client.call(
                .post, "/v1/donations/\(id)/posts", token: token, json: ["caption": "Look", "imageId": mine.uuidString], key: "p6")
            #expect(pictured.status == .created, "\(pictured.text)")
        }
    }

    @Test("a deleted account's donations, posts and messages disappear, and its messages are unreadable in the log", arguments: Backend.allCases)
    func accountDeletion(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("after-deletion", minimum: 100)
            let account = UUID()
            let token = try await client.token(account)
            try await client.topUp(token, 5_000)
            let made = try await client.donate(token, to: "after-deletion", 1_000, message: "Zanzibar Quokka note")
            let id = try #require((made.json["donation"] as? [String: Any])?["id"] as? String)
            let post = try await client.call(.post, "/v1/donations/\(id)/posts", token: token, json: ["caption": "Quokka caption"], key: "p")
            #expect(try await client.get("/v1/donation-posts", after: post.position).items.count == 1)

            try await client.runtime.keyVault.destroyKey(for: account)
            let deleted = try await client.runtime.store.append(
                to: "account-\(account.key)", expected: .any,
                events: [
                    try EventCatalog.encode(AccountDeleted(accountId: account, deletedAt: Date()))
                ])
            let feed = try await client.get("/v1/donation-posts", after: deleted.checkpoint.description)
            #expect(feed.items.isEmpty)
            #expect(try await client.call(.get, "/v1/organizations/after-deletion/supporters").items.isEmpty)
            #expect(try await client.call(.get, "/v1/donations/\(id)", token: try await client.token()).status == .notFound)
            #expect(try await client.call(.get, "/v1/wallet", token: token).status == .unauthorized, "a deleted account's tokens are refused")

            var everything = Data()
            for event in try await client.runtime.store.read(stream: "wallet-\(account.key)") { everything.append(event.data) }
            for event in try await client.runtime.store.read(stream: "donationpost-\((post.json["id"] as? String) ?? "")") {
                everything.append(event.data)
            }
            #expect(!everything.isEmpty)
            #expect(everything.range(of: Data("Quokka".utf8)) == nil, "messages and captions are sealed in the log")
        }
    }
}
