import Foundation

/// One kind of live stream: where it is, which of its events carry values, and when it is done.
struct LiveStream: Sendable {
    var endpoint: Endpoint
    /// The `event` names of the events that carry values; other events are skipped (a newer
    /// server may add some), though their ids still count.
    var eventTypes: Set<String>
    /// Whether nothing more is to come once the event with this id was received.
    var isComplete: @Sendable (_ lastEventId: String?) -> Bool

    init(endpoint: Endpoint, eventTypes: Set<String>, isComplete: @escaping @Sendable (_ lastEventId: String?) -> Bool = { _ in false }) {
        self.endpoint = endpoint
        self.eventTypes = eventTypes
        self.isComplete = isComplete
    }

    init(endpoint: Endpoint, eventType: String, isComplete: @escaping @Sendable (_ lastEventId: String?) -> Bool = { _ in false }) {
        self.init(endpoint: endpoint, eventTypes: [eventType], isComplete: isComplete)
    }
}

extension CommonsClient {
    /// The values of `stream`'s events, from after `lastEventId`, across reconnections: a
    /// broken connection, a stream the server ended (its session expired, the replica is
    /// stopping) and a 408, 429 or 5xx are followed by a wait (``reconnection``, never shorter
    /// than the server's `retry` or `Retry-After`) and a new connection that sends the last id
    /// received as `Last-Event-ID`.
    ///
    /// It ends when the consuming task is cancelled or the sequence is dropped (which cancels
    /// the connection and any wait), when the stream is complete, and by throwing on any
    /// other refusal (``CommonsProblem``), when not signed in, or when an event does not decode.
    /// A reader that falls more than ``liveStreamBuffer`` events behind gets
    /// ``LiveStreamGap`` where the dropped ones were, and the stream ends.
    nonisolated func live<Event: Decodable & Sendable>(
        _ stream: LiveStream, after lastEventId: String?,
        as type: Event.Type = Event.self
    ) -> AsyncThrowingStream<Event, any Error> {
        live(stream, after: lastEventId) { _, data in try self.decode(Event.self, from: data, path: stream.endpoint.path) }
    }

    /// ``live(_:after:as:)`` for a stream whose events of several names carry values:
    /// `decode` makes the value of one from its name and data.
    nonisolated func live<Event: Sendable>(
        _ stream: LiveStream, after lastEventId: String?,
        decode: @escaping @Sendable (_ name: String, _ data: HTTPResponseData) throws -> Event
    ) -> AsyncThrowingStream<Event, any Error> {
        let buffer = LiveBuffer<Event>(limit: liveStreamBuffer, resumeAfter: lastEventId)
        let following = Task {
            do {
                try await self.follow(stream, after: lastEventId, decode: decode) { buffer.push($0, id: $1) }
                buffer.finish()
            } catch is CancellationError {
                buffer.finish()
            } catch {
                buffer.finish(throwing: error)
            }
        }
        let connection = Connection(following)
        return AsyncThrowingStream {
            do {
                guard let event = try await buffer.next() else {
                    connection.end()
                    return nil
                }
                return event
            } catch {
                connection.end()
                throw error
            }
        }
    }

    private nonisolated func follow<Event: Sendable>(
        _ stream: LiveStream, after resumeAfter: String?,
        decode: (_ name: String, _ data: HTTPResponseData) throws -> Event,
        yield: (Event, _ id: String?) -> Void
    ) async throws {
        var lastEventId = resumeAfter
        var waits = reconnection.attempts()
        var serverRetry: Duration?
        while !stream.isComplete(lastEventId) {
            var retryAfter = Duration.zero
            do {
                let body = try await connect(stream.endpoint, after: lastEventId)
                var parser = ServerSentEventParser(lastEventId: lastEventId)
                for try await chunk in body {
                    // Connected and heard from: the next drop waits the shortest time again.
                    waits.reset()
                    for event in parser.feed(chunk) {
                        if stream.eventTypes.contains(event.type) {
                            yield(try decode(event.type, HTTPResponseData(status: 200, body: Data(event.data.utf8))), event.lastEventId)
                        }
                        lastEventId = event.lastEventId
                        if stream.isComplete(lastEventId) { return }
                    }
                    lastEventId = parser.lastEventId
                    serverRetry = parser.reconnectionTime ?? serverRetry
                }
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                switch error {
                case let problem as CommonsProblem where [408, 429].contains(problem.status) || problem.status >= 500:
                    retryAfter = .seconds(problem.retryAfter ?? 0)
                case is CommonsProblem, CommonsTransportError.notSignedIn, CommonsTransportError.undecodable:
                    throw error
                default:
                    break // the connection broke or never came: try again
                }
            }
            if stream.isComplete(lastEventId) { return }
            try await Task.sleep(for: min(max(waits.next(), serverRetry ?? .zero, retryAfter), reconnection.maximum))
        }
    }

    /// Opens a live stream with the session's access token, resuming after `lastEventId`;
    /// a 401 refreshes the session once (as every call does) and opens it again. Answers the
    /// body of a 2xx; throws ``CommonsProblem`` for a refusal, ``CommonsTransportError`` when
    /// nothing answered or no one is signed in.
    private func connect(_ endpoint: Endpoint, after lastEventId: String?) async throws -> AsyncThrowingStream<Data, any Error> {
        var endpoint = endpoint
        endpoint.headers["Accept"] = "text/event-stream"
        if let lastEventId, !lastEventId.isEmpty { endpoint.headers["Last-Event-ID"] = lastEventId }
        var refreshed = false
        while true {
            try Task.checkCancellation()
            guard let accessToken = await currentTokens()?.accessToken else { throw CommonsTransportError.notSignedIn }
            let request = try makeRequest(endpoint, accessToken: accessToken, idempotencyKey: nil)
            let opened: (head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>)
            do {
                opened = try await transport.openStream(request)
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                throw CommonsTransportError.unreachable(String(describing: error))
            }
            if opened.head.status == 401, !refreshed {
                refreshed = true
                if try await refresh(after: accessToken) { continue }
            }
            guard (200..<300).contains(opened.head.status) else {
                let body = try await Self.prefix(of: opened.body, upTo: 64 * 1024)
                throw CommonsProblem.decode(status: opened.head.status, body: body, retryAfter: opened.head.header("Retry-After"))
            }
            return opened.body
        }
    }

    /// The start of a body (a problem document), no longer than `limit`.
    private static func prefix(of body: AsyncThrowingStream<Data, any Error>, upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk.prefix(limit - data.count))
            if data.count >= limit { break }
        }
        return data
    }
}

/// The task that follows a live stream, for as long as its sequence is read: ended when
/// the reading ends, or when the sequence is dropped unread.
private final class Connection: Sendable {
    private let task: Task<Void, Never>

    init(_ task: Task<Void, Never>) {
        self.task = task
    }

    func end() { task.cancel() }

    deinit { task.cancel() }
}
