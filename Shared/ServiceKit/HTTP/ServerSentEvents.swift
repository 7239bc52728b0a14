import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// One server-sent event (the `text/event-stream` format of the WHATWG HTML standard, §9.2).
public struct ServerSentEvent: Sendable, Hashable {
    /// What a reconnecting client sends back as `Last-Event-ID` to resume after this event.
    public var id: String?
    /// The event's name, which `EventSource.addEventListener` listens for; nil means `message`.
    public var name: String?
    /// The payload; it may span lines.
    public var data: String

    public init(id: String? = nil, name: String? = nil, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }

    /// The wire form: one field a line, the data split at its line breaks, a blank line at the end.
    /// Line breaks in the id or name could forge fields, so they are dropped there.
    public var encoded: String {
        var text = ""
        if let id { text += "id: \(Self.singleLine(id))\n" }
        if let name { text += "event: \(Self.singleLine(name))\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// The same event with `value` encoded as JSON in its data.
    public static func json<Value: Encodable>(_ value: Value, id: String? = nil, name: String? = nil) throws -> ServerSentEvent {
        ServerSentEvent(id: id, name: name, data: String(decoding: try ResponseJSON.encode(value), as: UTF8.self))
    }

    private static func singleLine(_ text: String) -> String {
        String(text.filter { !$0.isNewline })
    }
}

/// Where a server-sent-event producer writes: events, and comments that only keep the
/// connection alive through proxies that close idle ones.
public struct ServerSentEventSink {
    fileprivate var writer: any ResponseBodyWriter
    fileprivate var end: StreamEnd?

    /// False once the server has begun a graceful shutdown (the client then reconnects to
    /// another replica with its `Last-Event-ID`), the request's task was cancelled, or the
    /// stream's session ended (see `ServiceRuntime.sessionEvents`).
    public var isOpen: Bool { !Task.isShuttingDownGracefully && !Task.isCancelled && !(end?.isSet ?? false) }

    /// Sends one event; throws once the client has gone, which ends the producer.
    public mutating func send(_ event: ServerSentEvent) async throws {
        try await writer.write(ByteBuffer(string: event.encoded))
    }

    /// Sends a comment line, which clients ignore.
    public mutating func keepAlive() async throws {
        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
    }
}

extension Response {
    /// A `text/event-stream` response whose body is whatever `produce` sends until it
    /// returns or the client goes away. A producer that runs until told should stop when
    /// ``ServerSentEventSink/isOpen`` turns false. It starts with a `retry` hint of `retryMilliseconds`
    /// for the client's reconnections. Caches and buffering proxies are told to stay out.
    public static func serverSentEvents(
        retryMilliseconds: Int = 3_000,
        _ produce: @escaping @Sendable (inout ServerSentEventSink) async throws -> Void
    ) -> Response {
        serverSentEvents(retryMilliseconds: retryMilliseconds, ending: nil, produce)
    }

    static func serverSentEvents(
        retryMilliseconds: Int = 3_000, ending end: StreamEnd?,
        _ produce: @escaping @Sendable (inout ServerSentEventSink) async throws -> Void
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: \(retryMilliseconds)\n\n"))
                var sink = ServerSentEventSink(writer: writer, end: end)
                do {
                    try await produce(&sink)
                } catch is CancellationError {
                    // The client went away or the server is stopping: the stream just ends.
                }
                try await sink.writer.finish(nil)
            })
    }
}

extension Request {
    /// The `Last-Event-ID` header a reconnecting `EventSource` sends: the id of the last
    /// event it received, or nil on a first connection.
    public var lastEventID: String? {
        head.headerFields[HTTPField.Name("Last-Event-ID")!]
    }
}
