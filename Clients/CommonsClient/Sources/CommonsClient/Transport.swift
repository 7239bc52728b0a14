import Foundation

/// One HTTP request as the client sends it.
public struct HTTPRequestData: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header names as sent; at most one value each.
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response: status, headers (names lowercased) and body.
public struct HTTPResponseData: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A header's value, by name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends requests over the network. ``URLSessionTransport`` is the live one; tests pass
/// one that answers from a script.
public protocol HTTPTransport: Sendable {
    /// The response, whatever its status; throws only when there is none (connection
    /// refused, timed out, cut), and `CancellationError` when the calling task is cancelled
    /// before the answer came.
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}
