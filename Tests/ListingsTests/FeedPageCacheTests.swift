import EventLogTestSupport
import Foundation
import GRDB
import ListingsService
import ServiceTestSupport
import Testing

/// Feed pages are kept under the feed's version token until the next listing expires
/// (`VersionedAnswerCache`): these tests ask for a page first, so that it is kept, then
/// change what it shows, by a write or by the clock alone.
@Suite("listings feed pages, kept while the feed is unchanged")
struct FeedPageCacheTests {
    private func expiry(of id: String, in items: [[String: Any]]) throws -> Date {
        let text = try #require(items.first { ($0["id"] as? String)?.lowercased() == id }?["expiresAt"] as? String)
        return try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test(
        "a page asked for again is the same; a post, a withdrawal and an expiry with no write show at once; author=me is each person's own",
        arguments: Backend.allCases)
    func fresh(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (ada, bob) = (try await client.person(), try await client.person())
            let (sofa, posted, _) = try await client.post(["title": "Blue sofa"], as: ada)
            let first = try await client.get("/v1/listings", after: posted)
            #expect(first.status == .ok && (first.json["items"] as? [[String: Any]])?.count == 1)
            #expect(try await client.get("/v1/listings", after: nil).body == first.body)

            client.clock.advance(by: 60)
            let (lamp, _, _) = try await client.post(["title": "Desk lamp"], as: bob)
            let (chair, last, _) = try await client.post(["title": "Chair"], as: ada)
            let feed = try await client.items("/v1/listings", after: last)
            #expect(feed.ids == [chair, lamp, sofa])
            #expect(try await client.items("/v1/listings?author=me", as: ada, after: nil).ids == [chair, sofa])
            #expect(try await client.items("/v1/listings?author=me", as: bob, after: nil).ids == [lamp])

            let withdrawn = try await client.call(.delete, "/v1/listings/\(chair)", as: ada)
            #expect(withdrawn.status.code < 300, "\(withdrawn.text)")
            #expect(try await client.items("/v1/listings", after: withdrawn.position).ids == [lamp, sofa])

            // The clock alone: the sofa expires a minute before the lamp, with nothing written.
            let (sofaExpiry, lampExpiry) = (try expiry(of: sofa, in: feed), try expiry(of: lamp, in: feed))
            #expect(lampExpiry.timeIntervalSince(sofaExpiry) == 60)
            #expect(try await client.items("/v1/listings?status=expired", after: nil).isEmpty)
            client.clock.advance(by: sofaExpiry.timeIntervalSince(client.clock.clock.now()) + 1)
            #expect(try await client.items("/v1/listings", after: nil).ids == [lamp])
            #expect(try await client.items("/v1/listings?status=expired", after: nil).ids == [sofa])
            client.clock.advance(by: 60)
            #expect(try await client.items("/v1/listings", after: nil).isEmpty)
            #expect(try await client.items("/v1/listings?status=expired", after: nil).ids == [lamp, sofa])
        }
    }

    @Test("a feed page under an unchanged token, before the next expiry, is the kept one; Cache-Control: no-cache reads afresh")
    func keptAndFresh() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let (id, posted, _) = try await client.post(["title": "Blue sofa"], as: owner)
            func title(_ reply: TestReply) -> String? { (reply.json["items"] as? [[String: Any]])?.first?["title"] as? String }
            #expect(title(try await client.get("/v1/listings", after: posted)) == "Blue sofa")
            // Retitle behind the triggers' back: the token stays, so the kept page stays.
            try await client.runtime.readModel.pool.write { db in
                let token = try FeedQueries.version.current(in: db)
                try db.execute(sql: "UPDATE listings SET title = 'Green sofa' WHERE listing_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE listings_feed_version SET token = ?", arguments: [token])
            }
            #expect(title(try await client.get("/v1/listings", after: nil)) == "Blue sofa")
            #expect(title(try await client.call(.get, "/v1/listings", headers: [.cacheControl: "no-cache"])) == "Green sofa")
            #expect(title(try await client.get("/v1/listings", after: nil)) == "Green sofa")
        }
    }

    @Test("the feed's version token changes with every write to listings, in the write's transaction, and with no other")
    func token() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let (_, posted, _) = try await client.post(as: owner)
            _ = try await client.get("/v1/listings", after: posted)
            let pool = client.runtime.readModel.pool
            let writes = [
                "UPDATE listings SET title = 'Renamed'",
                "INSERT INTO listings SELECT seq + 1, 'x', owner_id, title, description, category, condition, price_minor, price_currency, "
                    + "sort_price, status, lat, lon, image_ids, pickup_times, posted_at, updated_at, expires_at, version FROM listings",
                "DELETE FROM listings WHERE listing_id = 'x'",
            ]
            let failures = try await VersionTokenCheck.failures(
                of: FeedQueries.version, in: pool, writes: writes,
                unrelated: [
                    "INSERT INTO listings_deleted_accounts (account_id) VALUES ('a-new')",
                    "INSERT INTO listing_changes (listing_id, kind, changed_at) VALUES ('x', 'posted', 0)",
                ])
            #expect(failures.isEmpty)
        }
    }
}
