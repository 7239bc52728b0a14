import Backoff
import Foundation
import Testing

@testable import CommonsClient

/// A reader that stops reading a live stream for a while: the client holds a bounded number
/// of its events, keeps the newest, and tells the reader what it missed.
@Suite("live streams: a slow reader")
struct SlowReaderTests {
    @Test("a reader that falls behind over a real connection gets a gap with how many were dropped, the newest events, and where to resume")
    func gapOverAConnection() async throws {
        let events = (2...30).map { LiveStreamTests.change(Int64($0)) }.joined()
        let server = try SSEServer([[.send(LiveStreamTests.change(1)), .send(events), .end], [.hold]])
        let commons = CommonsClient(
            baseURL: server.url, tokenStore: InMemoryTokenStore(signedIn), transport: URLSessionTransport(timeout: 30),
            reconnection: Backoff(initial: .milliseconds(10), maximum: .milliseconds(50)), liveStreamBuffer: 4)
        var changes = commons.lists.liveChanges(LiveStreamTests.listId).makeAsyncIterator()
        #expect(try await changes.next()?.version == 1)
        // Not reading: the client reconnects only once it has taken in all of the first body.
        try await waitUntil("it took in every event and reconnected", limit: .seconds(10)) { server.requests.count == 2 }
        #expect(server.requests.last?.headers["last-event-id"] == "30")
        do {
            let next = try await changes.next()
            Issue.record("expected a gap, read \(String(describing: next))")
        } catch let gap as LiveStreamGap<ListChange> {
            #expect(gap.dropped == 25)
            #expect(gap.resumeAfter == "1")
            #expect(gap.newest.map(\.version) == [27, 28, 29, 30])
            #expect(gap.newestId == "30")
        }
        #expect(try await changes.next() == nil, "the stream is over after its gap")
        try await waitUntil("ending the stream closed the connection") { server.closedByClient == 1 }
    }

    @Test("events held within the bound are read in order, then the stream's end")
    func withinTheBound() async throws {
        let buffer = LiveBuffer<Int>(limit: 3, resumeAfter: nil)
        for value in 1...3 { buffer.push(value, id: "\(value)") }
        buffer.finish(throwing: CommonsTransportError.notSignedIn)
        #expect(try await buffer.next() == 1)
        #expect(try await buffer.next() == 2)
        #expect(try await buffer.next() == 3)
        await #expect(throws: CommonsTransportError.self) { try await buffer.next() }
    }

    @Test("past the bound the oldest unread go; the gap comes before anything else, even the stream's end")
    func pastTheBound() async throws {
        let buffer = LiveBuffer<Int>(limit: 2, resumeAfter: "7")
        for value in 8...12 { buffer.push(value, id: "\(value)") }
        buffer.finish()
        do {
            _ = try await buffer.next()
            Issue.record("expected a gap")
        } catch let gap as LiveStreamGap<Int> {
            #expect(gap.dropped == 3)
            #expect(gap.resumeAfter == "7", "nothing was read: resume where the stream began")
            #expect(gap.newest == [11, 12])
        }
        #expect(try await buffer.next() == nil)
    }

    @Test("a reader waiting for an event gets it as it comes, without a gap")
    func waitingReader() async throws {
        let buffer = LiveBuffer<Int>(limit: 1, resumeAfter: nil)
        let read = Locked<[Int]>([])
        let reader = Task {
            while let value = try await buffer.next() { read.withLock { $0.append(value) } }
        }
        for value in 1...3 {
            buffer.push(value, id: "\(value)")
            // The next event only once this one was read, so the bound of 1 is never passed.
            try await waitUntil("event \(value) was read") { read.withLock { $0.count } == value }
        }
        buffer.finish()
        try await reader.value
        #expect(read.withLock { $0 } == [1, 2, 3])
    }
}
