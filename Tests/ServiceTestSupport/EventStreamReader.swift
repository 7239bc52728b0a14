import AsyncHTTPClient
import Foundation
import NIOCore

/// One event as a client of a `text/event-stream` receives it.
public struct ReceivedEvent: Sendable, Equatable {
    public var id: String?
    public var name: String?
    public var data: String
}

/// Reads a server-sent-event stream over a real connection, as an app's `EventSource` would,
/// keeping what arrives until a test asks for it.
public final class EventStreamReader: Sendable {
    private let received: Received
    private let reading: Task<Void, Never>

    private init(received: Received, reading: Task<Void, Never>) {
        self.received = received
        self.reading = reading
    }

    /// Connects to `path` on the local `port` as the bearer of `token`, resuming after `lastEventID` when given.
    public static func open(port: Int, path: String, token: String, lastEventID: String? = nil) async throws -> EventStreamReader {
        let response = try await HTTPClient.shared.execute(
            request(port: port, path: path, token: token, lastEventID: lastEventID),
            timeout: .seconds(30))
        guard response.status == .ok else { throw TestFailure("\(path): \(response.status)") }
        let received = Received()
        let reading = Task {
            var parser = EventStreamParser()
            do {
                for try await chunk in response.body {
                    for event in parser.feed(String(buffer: chunk)) { await received.add(event) }
                }
            } catch {
                // Closed by the test, or by the server: either ends the stream.
            }
        }
        return EventStreamReader(received: received, reading: reading)
    }

    /// The status a connection attempt gets, for requests that should be refused.
    public static func status(port: Int, path: String, token: String, lastEventID: String?) async throws -> Int {
        let response = try await HTTPClient.shared.execute(
            request(port: port, path: path, token: token, lastEventID: lastEventID),
            timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 16)
        return Int(response.status.code)
    }

    /// The next `count` events not yet taken; fails when they have not all arrived within `patience`
    /// (generous: on two busy cores a post took more than 20 s to reach a stream on PostgreSQL).
    public func next(events count: Int, patience: Duration = .seconds(60)) async throws -> [ReceivedEvent] {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if let events = await received.take(count) { return events }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("fewer than \(count) events arrived within \(patience)")
    }

    /// Drops the connection.
    public func close() async throws {
        reading.cancel()
        _ = await reading.value
    }

    private static func request(port: Int, path: String, token: String, lastEventID: String?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        return request
    }

    private actor Received {
        private var events: [ReceivedEvent] = []
        private var taken = 0

        func add(_ event: ReceivedEvent) { events.append(event) }

        func take(_ count: Int) -> [ReceivedEvent]? {
            guard events.count - taken >= count else { return nil }
            defer { taken += count }
            return Array(events[taken..<(taken + count)])
        }
    }
}

/// Splits `text/event-stream` text into events: blocks end at a blank line; `:` lines are
/// comments; `retry` is ignored; an event without data is not dispatched.
public struct EventStreamParser {
    public init() {}

    private var pending = ""

    public mutating func feed(_ text: String) -> [ReceivedEvent] {
        pending += text
        var events: [ReceivedEvent] = []
        while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending = String(pending[end.upperBound...])
            var event = ReceivedEvent(id: nil, name: nil, data: "")
            var lines: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let field = String(parts[0])
                var value = parts.count > 1 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch field {
                case "id": event.id = value
                case "event": event.name = value
                case "data": lines.append(value)
                default: break
                }
            }
            guard !lines.isEmpty else { continue }
            event.data = lines.joined(separator: "\n")
            events.append(event)
        }
        return events
    }
}
