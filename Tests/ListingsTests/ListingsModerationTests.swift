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

    @Test("N distinct established reporters hide a listing; admins list and resolve reports", arguments: Backend.allCases)
    func reports(backend: Backend) async throws {
        try await ListingsHarness(backend: backend, extra: ["COMMONS_LISTING_REPORT_THRESHOLD": "2"]).test { client in
            let (owner, ada, bob, admin) = (
                try await client.person(), try await client.person(), try await client.person(),
                try await client.person(role: .admin)
            )
            for reporter in [ada, bob] { try await client.registered(reporter, ago: 30 * 86_400) }
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
            #expect((try await client.get(path, as: admin, after: nil)).json["status"] as? String == "hidden") // what is reviewed can be seen
            #expect((try await client.call(.get, "\(path)/comments", as: admin)).status == .ok) // with what was said under it
            #expect((try await client.call(.get, "\(path)/comments", as: ada)).status == .notFound)
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
            let (adaKey, bobKey) = (ada.id.uuidString.lowercased(), bob.id.uuidString.lowercased())
            func reasons(after position: String?) async throws -> [String: [String?]] {
                let reports = try await client.items("/v1/listings/reports", as: admin, after: position).first?["reports"] as? [[String: Any]] ?? []
                return Dictionary(grouping: reports, by: { $0["reporterId"] as? String ?? "" }).mapValues { $0.map { $0["reason"] as? String } }
            }
            #expect(
                try await reasons(after: nil) == [
                    adaKey: ["Looks like a scam", "Really a scam"], bobKey: ["Prohibited item"],
                ])
            // In the log the reasons are sealed with each reporter's key ...
            let logged = try await client.runtime.store.read(stream: "listingreports-\(id)").map { String(decoding: $0.data, as: UTF8.self) }
            #expect(logged.count == 3 && !logged.contains { $0.contains("scam") || $0.contains("Prohibited") })
            // ... so deleting the account leaves its report counted and what it said unreadable.
            try await client.runtime.keyVault.destroyKey(for: bob.id)
            let deleted = try await client.runtime.store.append(
                to: "account-\(bobKey)", expected: .any,
                events: [
                    try EventCatalog.encode(AccountDeleted(accountId: bob.id, deletedAt: Date()))
                ])
            #expect(
                try await reasons(after: deleted.checkpoint.description) == [
                    adaKey: ["Looks like a scam", "Really a scam"], bobKey: [nil],
                ])
            let erased = try #require(try await client.items("/v1/listings/reports", as: admin, after: nil).first?["reports"] as? [[String: Any]])
            #expect(erased.contains { $0["reporterId"] as? String == bobKey && $0["reason"] is NSNull })
            // A report from before reasons were sealed (schema 1) is shown as it was stored.
            let carol = UUID()
            let v1 =
                #"{"reportId":"\#(UUID())","listingId":"\#(id)","reporterId":"\#(carol)","reason":"Old report","reportedAt":"2026-11-20T10:00:00Z"}"#
            let appended = try await client.runtime.store.append(
                to: "listingreports-\(id)", expected: .any,
                events: [
                    NewEvent(type: "ListingReported", schemaVersion: 1, data: Data(v1.utf8))
                ])
            #expect(try await reasons(after: appended.checkpoint.description)[carol.uuidString.lowercased()] == ["Old report"])
            #expect((try await client.call(.post, "\(path)/reports/resolve", as: ada, json: ["decision": "dismissed"])).status == .forbidden)
            #expect((try await client.call(.post, "\(path)/reports/resolve", as: admin, json: ["decision": "maybe"])).status == .unprocessableContent)
            let dismissed = try await client.call(.post, "\(path)/reports/resolve", as: admin, json: ["decision": "dismissed"])
            #expect(dismissed.json["status"] as? String == "available")
            #expect((try await client.get(path, after: dismissed.position)).status == .ok)
            #expect(try await client.items("/v1/listings/reports", as: admin, after: nil).isEmpty)
        }
    }

    @Test("three accounts made a minute ago cannot hide a listing by reporting it; three established people can, at once")
    func throwawayReporters() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let (id, _, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)"
            func report(as reporter: ListingsHarness.Person) async throws -> String? {
                let reply = try await client.call(.post, "\(path)/reports", as: reporter, json: ["reason": "Looks like a scam"])
                #expect(reply.status == .accepted)
                return reply.position
            }
            var position: String?
            for _ in 0..<3 {
                let throwaway = try await client.person()
                try await client.registered(throwaway, ago: 60)
                position = try await report(as: throwaway)
            }
            // Nor do accounts the log does not know at all.
            for _ in 0..<3 { position = try await report(as: try await client.person()) }
            #expect((try await client.get(path, after: position)).json["status"] as? String == "available")

            for _ in 0..<3 {
                let neighbour = try await client.person()
                try await client.registered(neighbour, ago: 8 * 86_400)
                position = try await report(as: neighbour)
            }
            #expect((try await client.get(path, after: position)).status == .notFound)
            #expect((try await client.get(path, as: owner, after: nil)).json["status"] as? String == "hidden")
        }
    }

    @Test("the reports queue comes in pages of listings, each listing whole with its open reports; a bad limit or another list's cursor is 400")
    func reportsQueuePages() async throws {
        try await ListingsHarness(extra: ["COMMONS_LISTING_REPORT_THRESHOLD": "5"]).test { client in
            let (owner, ada, bob, admin) = (
                try await client.person(), try await client.person(), try await client.person(),
                try await client.person(role: .admin)
            )
            var position: String?
            var reported: [String] = []
            for _ in 0..<5 {
                let (id, _, _) = try await client.post(as: owner)
                reported.append(id.lowercased())
                for reporter in [ada, bob] {
                    position = try await client.call(.post, "/v1/listings/\(id)/reports", as: reporter, json: ["reason": "Spam"]).position
                }
            }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/v1/listings/reports?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.get(uri, as: admin, after: position)
                #expect(page.status == .ok)
                let items = page.json["items"] as? [[String: Any]] ?? []
                #expect(items.count <= 2)
                #expect(items.allSatisfy { ($0["reports"] as? [[String: Any]])?.count == 2 })
                seen += items.compactMap { $0["listingId"] as? String }
                cursor = page.json["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == reported.sorted())
            #expect((try await client.get("/v1/listings/reports?limit=0", as: admin, after: nil)).status == .badRequest)
            // A cursor of a listing's comments is not one of the queue.
            _ = try await client.call(.post, "/v1/listings/\(reported[0])/comments", as: ada, json: ["text": "one"])
            let commented = try await client.call(.post, "/v1/listings/\(reported[0])/comments", as: ada, json: ["text": "two"])
            let commentPage = try await client.get("/v1/listings/\(reported[0])/comments?limit=1", after: commented.position)
            let otherCursor = try #require(commentPage.json["nextCursor"] as? String)
            let refused = try await client.get("/v1/listings/reports?cursor=\(otherCursor)", as: admin, after: nil)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("another list"))
        }
    }
}
