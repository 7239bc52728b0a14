import Foundation

/// The status and headers of a response whose body is still on its way.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]

    /// A head with `headers` under any case of name (stored lowercased).
    public init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// A header's value, by name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A transport that also hands out a body as it arrives, for the live streams
/// (`text/event-stream`). ``URLSessionTransport`` is one. With a transport that is not,
/// the client reads a stream's body whole, once it has ended, and then reconnects.
public protocol HTTPStreamingTransport: HTTPTransport {
    /// The response's head once it has come, and its body as it comes: the body's sequence
    /// throws when the connection breaks and ends when the response has ended.
    ///
    /// Throws when no head came (as ``HTTPTransport/send(_:)`` does), `CancellationError`
    /// when the calling task is cancelled before it. Once the head is there, the request
    /// lives as long as the body's sequence: cancelling the task that iterates it, or
    /// dropping it, cancels the request.
    func stream(_ request: HTTPRequestData) async throws -> (head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>)
}

extension HTTPTransport {
    /// The body as it arrives when the transport can stream it, else whole, in one piece.
    func openStream(_ request: HTTPRequestData) async throws -> (head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>) {
        if let streaming = self as? any HTTPStreamingTransport { return try await streaming.stream(request) }
        let response = try await send(request)
        let body = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(response.body)
            continuation.finish()
        }
        return (HTTPResponseHead(status: response.status, headers: response.headers), body)
    }
}
