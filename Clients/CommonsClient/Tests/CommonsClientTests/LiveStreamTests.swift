import Backoff
import Foundation
import Testing

@testable import CommonsClient

/// Live streams over a transport that cannot stream: each answer's body comes whole, then
/// the client reconnects, as after a stream the server ended.
@Suite("live streams: tokens, resuming and ends")
struct LiveStreamTests {
    static let listId = UUID(uuidString: "3c1f0e2d-7b6a-4c5d-8e9f-0a1b2c3d4e5f")!

    static func streamClient(_ transport: ScriptedTransport, tokens: Tokens? = signedIn) -> CommonsClient {
        CommonsClient(
            baseURL: URL(string: "http://gateway.test")!, tokenStore: InMemoryTokenStore(tokens), transport: transport,
            retry: .immediate, reconnection: Backoff(initial: .zero, maximum: .zero))
    }

    static func events(_ text: String) -> HTTPResponseData {
        HTTPResponseData(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(text.utf8))
    }

    static func change(_ version: Int64) -> String {
        "id: \(version)\nevent: change\ndata: {\"version\":\(version),\"type\":\"ShoppingListItemChecked\",\"at\":\"2026-11-22T10:00:0\(version)Z\"}\n\n"
    }

    static func match(_ id: String, title: String) -> String {
        """
        id: \(id)
        event: match
        data: {"id":"\(id)","alertIds":["\(UUID().uuidString)"],"listing":{"id":"\(UUID().uuidString)","title":"\(title)",\
        "description":"","category":"Furniture","free":true,"status":"available","lat":52.52,"lon":13.4,"distanceMeters":120,\
        "postedAt":"2026-11-22T10:00:00Z","directionsURL":"https://maps.example/?q=52.52,13.4"}}


        """
    }

    static let unauthorized = HTTPResponseData.problem(
        401, #"{"type":"https://commons.example/problems/unauthorized","title":"Unauthorized","status":401}"#)

    @Test("a 401 before the stream refreshes the session and opens it again; a reconnection resumes after the last id")
    func refreshAndResume() async throws {
        let body =
            "retry: 0\n\n" + Self.match("7:41", title: "Chair") + ": keep-alive\n\nid: 7:50\nevent: newer-kind\ndata: {}\n\n"
            + Self.match("7:52", title: "Table")
        let transport = ScriptedTransport([
            .respond(Self.unauthorized), .respond(Answers.tokens("access-2", "refresh-2")),
            .respond(Self.events(body)), .hang,
        ])
        let commons = Self.streamClient(transport)
        let reader = Task {
            var titles: [String] = []
            for try await match in commons.geo.liveAlertMatches() { titles.append(match.listing.title) }
            return titles
        }
        try await waitUntil("it reconnected") { transport.sent.count == 4 }
        reader.cancel()
        #expect(try await reader.value == ["Chair", "Table"], "the event of an unknown kind is skipped")
        let sent = transport.sent
        #expect(sent[0].headers["Authorization"] == "Bearer access-1")
        #expect(sent[0].headers["Accept"] == "text/event-stream")
        #expect(sent[0].headers["Last-Event-ID"] == nil)
        #expect(sent[1].url.path == "/v1/sessions/refresh")
        #expect(sent[2].headers["Authorization"] == "Bearer access-2")
        #expect(sent[3].url.path == "/v1/alerts/stream")
        #expect(sent[3].headers["Last-Event-ID"] == "7:52")
    }

    @Test("a list's stream ends at `until`, without reconnecting; `changes` reads it whole")
    func until() async throws {
        let transport = ScriptedTransport([.respond(Self.events(Self.change(2) + Self.change(3) + Self.change(4)))])
        let commons = Self.streamClient(transport)
        var versions: [Int64] = []
        for try await change in commons.lists.liveChanges(Self.listId, after: 1, until: 3) { versions.append(change.version) }
        #expect(versions == [2, 3])
        #expect(transport.sent.count == 1)
        #expect(transport.sent[0].headers["Last-Event-ID"] == "1")
        #expect(transport.sent[0].url.query == "until=3")

        let cut = ScriptedTransport([.respond(Self.events(Self.change(1))), .fail, .respond(Self.events(Self.change(2)))])
        #expect(try await Self.streamClient(cut).lists.changes(Self.listId, until: 2).map(\.version) == [1, 2])
        // Without `after` it asks for the whole history (the server sends a snapshot to a stream opened without an id).
        #expect(cut.sent.map { $0.headers["Last-Event-ID"] } == ["0", "1", "1"])
    }

    static func snapshot(_ version: Int64) -> String {
        let owner = UUID().uuidString
        return
            "id: \(version)\nevent: snapshot\ndata: {\"id\":\"\(listId.uuidString)\",\"name\":\"Party\",\"ownerId\":\"\(owner)\",\"role\":\"owner\","
            + "\"members\":[\"\(owner)\"],\"items\":[],\"totals\":{\"calories\":0,\"prices\":[],\"unpricedItems\":0},\"version\":\(version)}\n\n"
    }

    @Test("a list's stream starts from its snapshot, then its changes; a reconnection resumes after the last version")
    func snapshotFirst() async throws {
        let transport = ScriptedTransport([.respond(Self.events(Self.snapshot(3) + Self.change(4))), .fail, .respond(Self.events(Self.change(5)))])
        var received: [ListStreamEvent] = []
        for try await event in Self.streamClient(transport).lists.live(Self.listId, until: 5) { received.append(event) }
        #expect(received.map(\.version) == [3, 4, 5])
        guard case .snapshot(let list) = received.first else { Issue.record("no snapshot first"); return }
        #expect(list.name == "Party" && list.items.isEmpty)
        #expect(transport.sent.map { $0.headers["Last-Event-ID"] } == [nil, "4", "4"])
    }

    @Test("my lists' stream starts with where it begins, then each change, and notes their positions for later reads")
    func myLists() async throws {
        let change =
            "id: 0:9\nevent: list\ndata: {\"listId\":\"\(Self.listId.uuidString)\",\"type\":\"ShoppingListMemberAdded\","
            + "\"version\":2,\"at\":\"2026-11-22T10:00:00Z\",\"accountId\":\"\(UUID().uuidString)\",\"position\":\"0:9\"}\n\n"
        let transport = ScriptedTransport([.respond(Self.events("id: 0:7\nevent: ready\ndata: {\"position\":\"0:7\"}\n\n" + change))])
        let commons = Self.streamClient(transport)
        var received: [MyListsEvent] = []
        for try await event in commons.lists.liveMyLists() {
            received.append(event)
            if received.count == 2 { break }
        }
        #expect(received.first == .ready(position: "0:7"))
        guard case .change(let shared) = received.last else { Issue.record("no change"); return }
        #expect(shared.listId == Self.listId && shared.type == .memberAdded && shared.version == 2)
        #expect(commons.positions.current == "0:9")
        #expect(transport.sent.first?.url.path == "/v1/lists/events" && transport.sent.first?.headers["Last-Event-ID"] == nil)
    }

    @Test("a 503 or 429 is waited out and retried; a list that is gone (404) ends the stream with the problem")
    func gone() async throws {
        let busy = HTTPResponseData.problem(
            429, #"{"type":"https://commons.example/problems/too-many-streams","title":"Too Many Requests","status":429}"#,
            headers: ["Retry-After": "0"])
        let notFound = HTTPResponseData.problem(404, #"{"type":"https://commons.example/problems/not-found","title":"Not Found","status":404}"#)
        let transport = ScriptedTransport([.respond(Answers.notReady), .respond(busy), .respond(Self.events(Self.change(1))), .respond(notFound)])
        var versions: [Int64] = []
        let error = await #expect(throws: CommonsProblem.self) {
            for try await change in Self.streamClient(transport).lists.liveChanges(Self.listId) { versions.append(change.version) }
        }
        #expect(error?.status == 404)
        #expect(versions == [1])
        #expect(transport.sent.count == 4)
        #expect(transport.sent[3].headers["Last-Event-ID"] == "1")
    }

    @Test("without a session, or when the refresh is refused, the stream throws instead of retrying")
    func signedOut() async throws {
        let nobody = ScriptedTransport([])
        await #expect(throws: CommonsTransportError.notSignedIn) {
            for try await _ in Self.streamClient(nobody, tokens: nil).geo.liveAlertMatches() {}
        }
        #expect(nobody.sent.isEmpty)

        let refused = ScriptedTransport([.respond(Self.unauthorized), .respond(Self.unauthorized), .respond(Self.events(Self.change(1)))])
        let error = await #expect(throws: CommonsProblem.self) {
            for try await _ in Self.streamClient(refused).lists.liveChanges(Self.listId) {}
        }
        #expect(error?.status == 401)
        #expect(refused.sent.count == 2)
    }

    @Test("an event that does not decode ends the stream with CommonsTransportError.undecodable")
    func undecodable() async throws {
        let transport = ScriptedTransport([.respond(Self.events("id: 1\nevent: change\ndata: {\"version\":\"one\"}\n\n"))])
        await #expect(throws: CommonsTransportError.self) {
            for try await _ in Self.streamClient(transport).lists.liveChanges(Self.listId) {}
        }
    }
}
