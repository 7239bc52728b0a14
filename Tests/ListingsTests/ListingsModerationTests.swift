import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import ServiceKit
import Testing

@Suite("comments and reports")
struct ListingsModerationTests {
    @Test("comments are public; their author and the listing's owner may delete them", arguments: Backend.allCases)
    func comments(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, ada, bob) = (try await client.person(), try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)/comments"
            #expect((try await client.call(.post, path, json: ["text": "Nice"])).status == .unauthorized)
            #expect((try await client.call(.post, path, as: ada, json: ["text": " "])).status == .unprocessableContent)
            let first = try await client.call(.post, path, as: ada, json: ["text": "Is it still available?"])
            #expect(first.status == .created)
            let second = try await client.call(.post, path, as: bob, json: ["text": "Lovely chair"])
            let third = try await client.call(.post, path, as: ada, json: ["text": "Thanks!"])
            let all = try await client.items(path, after: third.position)
            #expect(all.compactMap { $0["text"] as? String } == ["Is it still available?", "Lovely chair", "Thanks!"])
            let page = try await client.get("\(path)?limit=2", after: nil)
            let cursor = try #require(page.json["nextCursor"] as? String)
            #expect(try await client.items("\(path)?limit=2&cursor=\(cursor)", after: nil).compactMap { $0["text"] as? String } == ["Thanks!"])

            let secondId = try #require(second.json["id"] as? String)
            #expect((try await client.call(.delete, "\(path)/\(secondId)", as: ada)).status == .forbidden)
            let byOwner = try await client.call(.delete, "\(path)/\(secondId)", as: owner)
            #expect(byOwner.status == .noContent)
            #expect((try await client.call(.delete, "\(path)/\(secondId)", as: owner)).status == .notFound)
            let firstId = try #require(first.json["id"] as? String)
            let byAuthor = try await client.call(.delete, "\(path)/\(firstId)", as: ada)
            #expect(byAuthor.status == .noContent)
            #expect(try await client.items(path, after: byAuthor.position).compactMap { $0["text"] as? String } == ["Thanks!"])
        }
    }

    @Test("N distinct reporters hide a listing; admins list and resolve reports", arguments: Backend.allCases)
    func reports(backend: Backend) async throws {
        try await ListingsHarness(backend: backend, extra: ["COMMONS_LISTING_REPORT_THRESHOLD": "2"]).test { client in
            let (owner, ada, bob, admin) = (try await client.person(), try await client.person(), try await client.person(),
                                            try await client.person(role: .admin))
            let (id, _, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)"
            #expect((try await client.call(.post, "\(path)/reports", as: owner, json: ["reason": "mine"])).status == .conflict)
            #expect((try await client.call(.post, "\(path)/reports", as: ada, json: [:])).status == .unprocessableContent)
            #expect((try await client.call(.post, "\(path)/reports", as: ada, json: ["reason": "Looks like a scam"])).status == .accepted)
            // The same account twice counts once.
            let twice = try await client.call(.post, "\(path)/reports", as: ada, json: ["reason": "Really a scam"])
            #expect((try await client.get(path, after: twice.position)).json["status"] as? String == "available")
            let hiding = try await client.call(.post, "\(path)/reports", as: bob, json: ["reason": "Prohibited item"])
            #expect((try await client.get(path, after: hiding.position)).status == .notFound)
            #expect((try await client.get(path, as: owner, after: nil)).json["status"] as? String == "hidden")
            #expect((try await client.get(path, as: admin, after: nil)).json["status"] as? String == "hidden")  // what is reviewed can be seen
            // To everyone else it does not exist: a request is not found either, rather than refused for its status.
            #expect((try await client.call(.post, "\(path)/requests", as: ada, json: ["message": "Still there?"])).status == .notFound)
            #expect(try await client.items("/v1/listings", after: nil).isEmpty)
            #expect(try await client.items("/v1/listings?author=me&status=hidden", as: owner, after: nil).ids == [id])
            let events = try await client.runtime.store.read(stream: "listing-\(id)")
            #expect(events.last?.type == "ListingStatusChanged")

            #expect((try await client.get("/v1/listings/reports", as: ada, after: nil)).status == .forbidden)
            let open = try await client.items("/v1/listings/reports", as: admin, after: nil)
            #expect(open.count == 1)
            #expect((open.first?["reports"] as? [[String: Any]])?.count == 3)
            #expect((try await client.call(.post, "\(path)/reports/resolve", as: ada, json: ["decision": "dismissed"])).status == .forbidden)
            #expect((try await client.call(.post, "\(path)/reports/resolve", as: admin, json: ["decision": "maybe"])).status == .unprocessableContent)
            let dismissed = try await client.call(.post, "\(path)/reports/resolve", as: admin, json: ["decision": "dismissed"])
            #expect(dismissed.json["status"] as? String == "available")
            #expect((try await client.get(path, after: dismissed.position)).status == .ok)
            #expect(try await client.items("/v1/listings/reports", as: admin, after: nil).isEmpty)
        }
    }
}
