import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import ShoppingListsDomain
import ShoppingListsService
import Testing

@Suite("shopping lists: live changes, privacy, the API document")
struct LiveAndPrivacyTests {
    /// The events of a `text/event-stream` body: id, name and data.
    static func serverSentEvents(_ text: String) -> [(id: String, name: String?, data: [String: Any])] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let id = lines.first(where: { $0.hasPrefix("id: ") })?.dropFirst(4),
                let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))).map(lowercasingIds) as? [String: Any]
            else { return nil }
            return (String(id), lines.first(where: { $0.hasPrefix("event: ") }).map { String($0.dropFirst(7)) }, json)
        }
    }

    @Test("an account holds at most 8 live streams in a process (the 9th gets 429), and every stream of a session ends once it is revoked")
    func streamsCapAndRevocation() async throws {
        try await ShoppingListsHarness().test { client in
            let ada = try await client.account()
            let list = try await client.list("Party", by: ada)
            let session = UUID()
            let (signer, kid) = try await client.ring.signer()
            let token = try await signer.sign(
                AccessTokenClaims(accountId: ada.id, sessionId: session, role: .member, issuedAt: Date(), lifetime: 900),
                kid: .init(string: kid))
            let bearer: [HTTPField.Name: String] = [.authorization: "Bearer \(token)"]
            let streams = Task {
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<8 { group.addTask { try await client.call(.get, "/v1/lists/\(list.key)/events", headers: bearer).status } }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while client.runtime.streams.count(of: ada.id) < 8, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let ninth = try await client.call(.get, "/v1/lists/\(list.key)/events", headers: bearer)
            #expect(ninth.status == .tooManyRequests)
            #expect(ninth.json["type"] as? String == "https://commons.example/problems/too-many-streams")

            // Signed out: the open streams end by themselves, as a request with the token would be refused.
            _ = try await client.store.append(
                to: "session-\(session.uuidString.lowercased())", expected: .any,
                events: [
                    try EventCatalog.encode(SessionRevoked(sessionId: session, accountId: ada.id, reason: "signed out", at: Date()))
                ])
            let ended = try await withThrowingTaskGroup(of: [HTTPResponse.Status]?.self) { group in
                group.addTask { try await streams.value }
                group.addTask {
                    try await Task.sleep(for: .seconds(20)); return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(ended == Array(repeating: .ok, count: 8), "every stream ended within 20 s of the revocation")
            #expect(client.runtime.streams.count(of: ada.id) == 0)
        }
    }

    @Test("a live stream ends when the access token it was opened with expires, as a request with that token would be refused")
    func streamEndsAtTokenExpiry() async throws {
        try await ShoppingListsHarness().test { client in
            let ada = try await client.account()
            let list = try await client.list("Party", by: ada)
            let (signer, kid) = try await client.ring.signer()
            let token = try await signer.sign(
                AccessTokenClaims(accountId: ada.id, sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 10),
                kid: .init(string: kid))
            // Ten seconds leaves the request ample time to open the stream on a loaded machine.
            let stream = Task { try await client.call(.get, "/v1/lists/\(list.key)/events", headers: [.authorization: "Bearer \(token)"]) }
            let ended = try await withThrowingTaskGroup(of: ShoppingListsHarness.Reply?.self) { group in
                group.addTask { try await stream.value }
                group.addTask {
                    try await Task.sleep(for: .seconds(60)); return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(ended?.status == .ok, "the stream was open, then ended by itself once its token's 10 s lifetime ran out")
            #expect(client.runtime.streams.count(of: ada.id) == 0)
            #expect(
                try await client.call(.get, "/v1/lists/\(list.key)/events", headers: [.authorization: "Bearer \(token)"]).status
                    == .unauthorized, "and the token opens no new one")
        }
    }

    @Test(
        "live changes as server-sent events: collaborators see each change as it happens and resume after Last-Event-ID",
        arguments: Backend.allCases)
    func liveChanges(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            let (ada, grace) = (try await client.account(), try await client.account())
            let list = try await client.list("Party", by: ada)
            #expect(try await client.call(.post, "/v1/lists/\(list.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            let cake = try await client.add(["text": "Cake"], to: list, by: ada)

            // A new stream starts from the list as it is: one snapshot, not its history.
            let opened = try await client.call(.get, "/v1/lists/\(list.key)/events?until=3", as: grace)
            #expect(opened.status == .ok)
            #expect(opened.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let snapshot = Self.serverSentEvents(opened.text)
            #expect(snapshot.map(\.id) == ["3"] && snapshot.map(\.name) == ["snapshot"])
            #expect(snapshot.first?.data["version"] as? Int == 3 && snapshot.first?.data["name"] as? String == "Party")
            #expect((snapshot.first?.data["items"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["Cake"])
            #expect(snapshot.first?.data["members"] as? [String] == [ada.id.key, grace.id.key].sorted())
            // The history is there for a client that asks to resume from the start.
            let history = try await client.call(
                .get, "/v1/lists/\(list.key)/events?until=3", as: grace, headers: [HTTPField.Name("Last-Event-ID")!: "0"])
            let past = Self.serverSentEvents(history.text)
            #expect(past.map(\.id) == ["1", "2", "3"] && past.allSatisfy { $0.name == "change" })
            #expect(past.map { $0.data["type"] as? String } == ["ShoppingListCreated", "ShoppingListMemberAdded", "ShoppingListItemAdded"])
            #expect(past[0].data["name"] as? String == "Party" && past[2].data["text"] as? String == "Cake")

            // Grace listens live from where she was, until version 6, while Ada edits.
            async let live = client.call(.get, "/v1/lists/\(list.key)/events?until=6", as: grace, headers: [HTTPField.Name("Last-Event-ID")!: "3"])
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(cake.key)", as: ada, json: ["quantityDelta": 2]).status == .ok)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(cake.key)", as: ada, json: ["checked": true]).status == .ok)
            #expect(try await client.call(.patch, "/v1/lists/\(list.key)/items/\(cake.key)", as: ada, json: ["note": "chocolate"]).status == .ok)
            let received = Self.serverSentEvents(try await live.text)
            #expect(received.map(\.id) == ["4", "5", "6"])
            #expect(received[0].data["delta"] as? Int == 2 && received[1].data["checked"] as? Bool == true)
            #expect(received[2].data["note"] as? String == "chocolate")
            // Once she leaves, the list's events are not hers to see.
            #expect(try await client.call(.delete, "/v1/lists/\(list.key)/members/\(grace.id.key)", as: grace).status == .noContent)
            #expect(try await client.call(.get, "/v1/lists/\(list.key)/events?until=6", as: grace).status == .notFound)
            let resumed = try await client.call(
                .get, "/v1/lists/\(list.key)/events?until=7", as: ada, headers: [HTTPField.Name("Last-Event-ID")!: "4"])
            #expect(Self.serverSentEvents(resumed.text).map(\.id) == ["5", "6", "7"])
            let fresh = Self.serverSentEvents(try await client.call(.get, "/v1/lists/\(list.key)/events?until=7", as: ada).text)
            #expect(fresh.map(\.id) == ["7"] && fresh.first?.data["members"] as? [String] == [ada.id.key])
            let bad = try await client.call(.get, "/v1/lists/\(list.key)/events", as: ada, headers: [HTTPField.Name("Last-Event-ID")!: "soon"])
            #expect(bad.status == .badRequest)
        }
    }

    @Test(
        "what people write is sealed in the log; deleting an account removes its lists, reviews, favourites and items everywhere",
        arguments: Backend.allCases)
    func accountDeletion(backend: Backend) async throws {
        try await ShoppingListsHarness(backend: backend).test { client in
            try await client.importCatalog(TestCatalog.file())
            let (ada, grace) = (try await client.account(), try await client.account())
            let adas = try await client.list("Ada's secret recipe", by: ada)
            let graces = try await client.list("Grace's list", by: grace)
            #expect(try await client.call(.post, "/v1/lists/\(adas.key)/members", as: ada, json: ["accountId": grace.id.key]).status == .ok)
            #expect(try await client.call(.post, "/v1/lists/\(graces.key)/members", as: grace, json: ["accountId": ada.id.key]).status == .ok)
            _ = try await client.add(["text": "Marzipan for Ada", "note": "hidden note"], to: graces, by: ada)
            _ = try await client.add(["productId": TestCatalog.butter.key, "note": "Ada's butter note"], to: graces, by: ada)
            _ = try await client.add(["text": "Grace's flour"], to: graces, by: grace)
            _ = try await client.call(.put, "/v1/products/\(TestCatalog.bread.key)/review", as: ada, json: ["rating": 1, "text": "Ada hated it"])
            _ = try await client.call(.put, "/v1/products/\(TestCatalog.bread.key)/favorite", as: ada)

            let log = try await settledEvents(of: client.store)
            let everything = log.map { String(decoding: $0.data, as: UTF8.self) }.joined()
            for secret in ["secret recipe", "Marzipan", "hidden note", "Ada hated it", "Grace's flour"] { #expect(!everything.contains(secret)) }

            try await client.delete(ada)
            #expect(try await client.call(.get, "/v1/lists/\(adas.key)", as: grace).status == .notFound)
            let left = try await client.view(graces, as: grace)
            let items = try #require(left["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["text"] as? String } == ["Grace's flour"])
            #expect(left["members"] as? [String] == [grace.id.key])
            let product = try await client.call(.get, "/v1/products/\(TestCatalog.bread.key)")
            #expect(product.json["reviewCount"] as? Int == 0)
            #expect(try await client.call(.get, "/v1/products/\(TestCatalog.bread.key)/reviews").items.isEmpty)
            // Ada's list is gone for its members' writes too, and Ada's tokens are refused.
            #expect(try await client.call(.post, "/v1/lists/\(adas.key)/items", as: grace, json: ["text": "x"]).status == .notFound)
            #expect(try await client.call(.get, "/v1/lists", as: ada).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/lists", as: grace).items.ids == [graces.key])
            // Her key is destroyed: what she wrote cannot be opened from the log any more.
            let sealed = log.compactMap { try? CommonsEvents.catalog.decode($0) as? ShoppingListCreated }.first { $0.ownerId == ada.id }
            let name = try #require(sealed?.name)
            #expect(try await PersonalDataSealer(vault: client.runtime.keyVault).open(name, as: String.self) == nil)
        }
    }

    @Test("the OpenAPI document lists exactly the routes served; malformed bodies and ids never cause a 500")
    func documentAndRobustness() async throws {
        try await ShoppingListsHarness().test { client in
            #expect(Set(client.routes) == (try ShoppingListsService.definition()).openAPI.documentedRoutes)
            let ada = try await client.account()
            let list = try await client.list(by: ada)
            let item = try await client.add(["text": "Tea"], to: list, by: ada)
            let bodies: [String?] = [
                nil, "", "{", "[]", "null", "{\"name\": {}}", "{\"commands\": 3}", "{\"rating\": \"five\"}",
                "{\"quantityDelta\": 1e400}", "{\"accountId\": \"nope\"}",
            ]
            // My lists' stream stays open while its client listens: `MyListsStreamTests` sends it bad input.
            let open = ["GET /v1/lists/events"]
            for route in client.routes
            where !route.contains("/health") && !route.contains("/metrics") && !route.contains("openapi") && !open.contains(route) {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                let path =
                    String(parts[1]).replacingOccurrences(of: "{id}", with: route.contains("/products") ? UUID().key : list.key)
                    .replacingOccurrences(of: "{itemId}", with: item.key).replacingOccurrences(of: "{accountId}", with: "not-a-uuid")
                    + (route.hasSuffix("/events") ? "?until=1" : "")
                for body in bodies {
                    let reply = try await client.call(method, path, as: ada, raw: body)
                    #expect(reply.status.code < 500, "\(route) with \(body ?? "no body"): \(reply.status) \(reply.text)")
                }
            }
        }
    }
}
