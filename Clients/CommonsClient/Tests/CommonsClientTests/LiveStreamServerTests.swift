import Backoff
import Foundation
import Testing

@testable import CommonsClient

/// Live streams over `URLSession` against a local server that drops connections.
@Suite("live streams over a real connection")
struct LiveStreamServerTests {
    static func streamClient(_ server: SSEServer) -> CommonsClient {
        CommonsClient(
            baseURL: server.url, tokenStore: InMemoryTokenStore(signedIn), transport: URLSessionTransport(timeout: 30),
            reconnection: Backoff(initial: .milliseconds(10), maximum: .milliseconds(50)))
    }

    static let change = LiveStreamTests.change

    @Test("after a cut connection and a stream the server ended, it reconnects with Last-Event-ID and yields every event once, in order")
    func reconnects() async throws {
        let server = try SSEServer([
            [
                .send("retry: 20\n\n"), .send(Self.change(1)), .send(": keep-alive\n\n" + Self.change(2)),
                .send("id: 3\nevent: change\ndata: {\"version\":3,"), .cut,
            ],
            [.send("retry: 20\n\n" + Self.change(3)), .send(Self.change(4)), .end],
            [.send(Self.change(5)), .hold],
        ])
        let commons = Self.streamClient(server)
        let reader = Task {
            var versions: [Int64] = []
            for try await change in commons.lists.liveChanges(LiveStreamTests.listId) {
                versions.append(change.version)
                if versions.count == 5 { break }
            }
            return versions
        }
        let versions = try await reader.value
        #expect(versions == [1, 2, 3, 4, 5])
        let requests = server.requests
        #expect(requests.count == 3)
        // The first asks for the history from the start ("0"), as `liveChanges` without `after` does.
        #expect(requests.map { $0.headers["last-event-id"] } == ["0", "2", "4"])
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer access-1" && $0.headers["accept"] == "text/event-stream" })
        #expect(requests.first?.line == "GET /v1/lists/\(LiveStreamTests.listId.uuidString.lowercased())/events HTTP/1.1")
        try await waitUntil("leaving the loop closed the connection") { server.closedByClient == 1 }
    }

    @Test("keep-alive comments keep a quiet stream; one silent for longer than the idle timeout is taken for dropped")
    func idleTimeout() async throws {
        let keepAlive = SSEServer.Step.send(": keep-alive\n\n")
        let pause = SSEServer.Step.pause(.milliseconds(400))
        let server = try SSEServer([
            [.send(Self.change(1)), pause, keepAlive, pause, keepAlive, pause, keepAlive, pause, .send(Self.change(2)), .hold],
            [.send(Self.change(3)), .hold],
        ])
        let commons = CommonsClient(
            baseURL: server.url, tokenStore: InMemoryTokenStore(signedIn),
            transport: URLSessionTransport(timeout: 30, streamIdleTimeout: 1),
            reconnection: Backoff(initial: .milliseconds(10), maximum: .milliseconds(50)))
        let reader = Task {
            var versions: [Int64] = []
            for try await change in commons.lists.liveChanges(LiveStreamTests.listId) {
                versions.append(change.version)
                if versions.count == 3 { break }
            }
            return versions
        }
        // 1.6 s of keep-alives, then 1 s of silence: the one held connection would never end by itself.
        try await waitUntil("it reconnected after the silence", limit: .seconds(6)) { server.requests.count == 2 }
        // Without an idle timeout it would wait forever: end it then, and fail.
        if server.requests.count < 2 { reader.cancel() }
        #expect(try await reader.value == [1, 2, 3])
        #expect(server.requests.map { $0.headers["last-event-id"] } == ["0", "2"], "one reconnection, after the silence")
        #expect(server.closedByClient >= 1)
    }

    @Test("cancelling the consuming task ends the sequence at once and closes the connection")
    func cancelling() async throws {
        let server = try SSEServer([[.send(Self.change(1)), .hold]])
        let commons = Self.streamClient(server)
        let received = Locked(0)
        let reader = Task {
            for try await _ in commons.lists.liveChanges(LiveStreamTests.listId) { received.withLock { $0 += 1 } }
        }
        try await waitUntil("the first event came") { received.withLock { $0 } == 1 }
        let cancelled = ContinuousClock.now
        reader.cancel()
        try await reader.value
        #expect(ContinuousClock.now - cancelled < .seconds(2))
        try await waitUntil("the server saw the connection close") { server.closedByClient == 1 }
        #expect(server.requests.count == 1, "no reconnection after the cancellation")
    }

    @Test("cancelled while waiting for the server's first answer, it ends at once too")
    func cancellingBeforeTheHead() async throws {
        let server = try SilentServer()
        let commons = CommonsClient(baseURL: server.url, tokenStore: InMemoryTokenStore(signedIn), transport: URLSessionTransport(timeout: 30))
        let reader = Task { for try await _ in commons.geo.liveAlertMatches() {} }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        reader.cancel()
        try await reader.value
        #expect(ContinuousClock.now - cancelled < .seconds(2))
    }
}
