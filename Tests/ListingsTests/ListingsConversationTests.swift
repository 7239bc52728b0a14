import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import ServiceKit
import Testing

@Suite("conversations")
struct ListingsConversationTests {
    @Test("a request opens a private conversation; only its two participants read it; unread counts", arguments: Backend.allCases)
    func privateConversation(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, asker, other) = (try await client.person(), try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let request = try await client.call(.post, "/v1/listings/\(id)/requests", as: asker, json: ["message": "Could I pick it up today?"])
            let conversation = try #require(request.json["conversationId"] as? String).lowercased()

            let ownersList = try await client.get("/v1/conversations", as: owner, after: request.position)
            let entry = try #require((ownersList.json["items"] as? [[String: Any]])?.first)
            #expect(entry["id"] as? String == conversation)
            #expect(entry["unreadCount"] as? Int == 1)
            #expect(ownersList.json["unreadCount"] as? Int == 1)
            #expect((try await client.get("/v1/conversations", as: asker, after: nil)).json["unreadCount"] as? Int == 0)
            #expect(try await client.items("/v1/conversations", as: other, after: nil).isEmpty)

            let path = "/v1/conversations/\(conversation)/messages"
            #expect((try await client.get(path, as: other, after: nil)).status == .notFound)
            #expect((try await client.call(.post, path, as: other, json: ["text": "Let me in"])).status == .notFound)
            #expect((try await client.get(path, after: nil)).status == .unauthorized)
            #expect((try await client.call(.post, path, as: owner, json: ["text": ""])).status == .unprocessableContent)
            let reply = try await client.call(.post, path, as: owner, json: ["text": "Yes, after six"])
            #expect(reply.status == .created)
            try await client.call(.post, path, as: asker, json: ["text": "Great, see you"])
            let last = try await client.call(.post, path, as: owner, json: ["text": "Ring twice"])

            let messages = try await client.items(path, as: asker, after: last.position)
            #expect(messages.compactMap { $0["text"] as? String } == ["Could I pick it up today?", "Yes, after six", "Great, see you", "Ring twice"])
            let page = try await client.get("\(path)?limit=3", as: owner, after: nil)
            let cursor = try #require(page.json["nextCursor"] as? String)
            #expect(
                try await client.items("\(path)?limit=3&cursor=\(cursor)", as: owner, after: nil).compactMap { $0["text"] as? String } == [
                    "Ring twice"
                ])

            #expect((try await client.get("/v1/conversations", as: asker, after: nil)).json["unreadCount"] as? Int == 2)
            #expect((try await client.get("/v1/conversations", as: owner, after: nil)).json["unreadCount"] as? Int == 2)
            let read = try await client.call(.post, "/v1/conversations/\(conversation)/read", as: asker)
            #expect(read.status == .noContent)
            #expect((try await client.get("/v1/conversations", as: asker, after: read.position)).json["unreadCount"] as? Int == 0)
            #expect((try await client.call(.post, "/v1/conversations/\(conversation)/read", as: other)).status == .notFound)

            // No message appears in the log in clear.
            let events = try await client.runtime.store.read(stream: "conversation-\(conversation)")
            #expect(events.count == 4)
            for event in events { #expect(!String(decoding: event.data, as: UTF8.self).contains("six")) }
        }
    }

    @Test(
        "my conversations come a page at a time, newest first, with every page's unread count; one listing's alone; one by id",
        arguments: Backend.allCases)
    func pagedConversations(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, other) = (try await client.person(), try await client.person())
            let (first, _, _) = try await client.post(as: owner)
            let (second, _, _) = try await client.post(as: owner)
            var last: String?
            var opened: [String] = []
            for listing in [first, first, first, second, second] {
                let asker = try await client.person()
                let request = try await client.call(.post, "/v1/listings/\(listing)/requests", as: asker, json: ["message": "May I?"])
                opened.append(try #require(request.json["conversationId"] as? String).lowercased())
                last = request.position
            }

            let whole = try await client.get("/v1/conversations?limit=100", as: owner, after: last)
            let everything = (whole.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String)?.lowercased() }
            #expect(Set(everything) == Set(opened) && everything.count == 5)
            #expect(whole.json["nextCursor"] == nil)
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.get("/v1/conversations?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), as: owner, after: nil)
                #expect(page.status == .ok)
                #expect(page.json["unreadCount"] as? Int == 5)
                paged += (page.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String)?.lowercased() }
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil && paged.count < 10
            #expect(paged == everything)

            let aboutFirst = try await client.get("/v1/conversations?listing=\(first)", as: owner, after: nil)
            #expect(
                Set((aboutFirst.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String)?.lowercased() }) == Set(opened.prefix(3)))
            #expect(aboutFirst.json["unreadCount"] as? Int == 3)
            #expect((try await client.get("/v1/conversations?listing=nope", as: owner, after: nil)).status == .badRequest)
            let otherList = try #require(
                (try await client.get("/v1/conversations?limit=1&listing=\(first)", as: owner, after: nil)).json["nextCursor"] as? String)
            #expect((try await client.get("/v1/conversations?cursor=\(otherList)", as: owner, after: nil)).status == .badRequest)

            let one = try await client.get("/v1/conversations/\(opened[4])", as: owner, after: nil)
            #expect(one.status == .ok)
            #expect((one.json["id"] as? String)?.lowercased() == opened[4] && one.json["unreadCount"] as? Int == 1)
            #expect((try await client.get("/v1/conversations/\(opened[4])", as: other, after: nil)).status == .notFound)
        }
    }
}
