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
            #expect(try await client.items("\(path)?limit=3&cursor=\(cursor)", as: owner, after: nil).compactMap { $0["text"] as? String } == ["Ring twice"])

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
}
