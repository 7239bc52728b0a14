import EventLog
import EventLogTestSupport
import Foundation
import ServiceKit
import Testing

@Suite("listings: retried posts")
struct ListingsRetryTests {
    @Test(
        "a post retried with its Idempotency-Key after the first answer was lost (no record of it) lands once, as the same listing",
        arguments: Backend.allCases)
    func lostAnswer(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            let first = try await client.call(.post, "/v1/listings", as: owner, json: ListingsFixtures.listing, headers: [.idempotencyKey: "post-1"])
            #expect(first.status == .created)
            // The first answer never reached the phone, and its record is gone (as when the
            // request failed with a 5xx after its append committed, which gives the key up).
            #expect(try await client.runtime.idempotency.purge(before: Date().addingTimeInterval(3_600)) == 1)
            let retry = try await client.call(.post, "/v1/listings", as: owner, json: ListingsFixtures.listing, headers: [.idempotencyKey: "post-1"])
            #expect(retry.status == .created, "\(retry.text)")
            #expect(retry.json["id"] as? String == first.json["id"] as? String)
            let posted = try await settledEvents(of: client.runtime.store, filter: EventFilter(categories: ["listing"]))
            #expect(posted.filter { $0.type == "ListingPosted" }.count == 1)
            // Someone else's post with the same key is theirs, not this one.
            let other = try await client.person()
            let theirs = try await client.call(.post, "/v1/listings", as: other, json: ListingsFixtures.listing, headers: [.idempotencyKey: "post-1"])
            #expect(theirs.status == .created)
            #expect(theirs.json["id"] as? String != first.json["id"] as? String)
        }
    }
}
