import Backoff
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    /// refused, timed out, cut).
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}

/// Sends requests with `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// - Parameters:
    ///   - session: the session to use (default: an ephemeral one, no cookies or cache).
    ///   - timeout: seconds one request may take (default 30).
    public init(session: URLSession? = nil, timeout: TimeInterval = 30) {
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.timeout = timeout
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let immutable = urlRequest
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: immutable) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let http = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                    }
                    continuation.resume(returning: HTTPResponseData(status: http.statusCode, headers: headers, body: data ?? Data()))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
    }
}

/// When and how often a request is sent again after the network failed or a service was
/// unavailable (502, 503, 504). Only requests that are safe to repeat are retried: reads,
/// PUT and DELETE, and writes that carry an `Idempotency-Key` (the same key every time).
public struct RetryPolicy: Sendable {
    /// Sends in all, the first included (1: never retry).
    public var attempts: Int
    /// The wait before the first retry; each later one doubles it.
    public var initialDelay: Duration
    /// The longest wait between two sends, `Retry-After` included.
    public var maximumDelay: Duration
    /// The share of each wait drawn at random (``Backoff/jitter``), so that the apps a
    /// failure hit together do not all retry together.
    public var jitter: Double

    public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2), jitter: Double = 0.5) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
    }

    public static let `default` = RetryPolicy()
    /// For tests: retries at once.
    public static let immediate = RetryPolicy(attempts: 4, initialDelay: .zero, maximumDelay: .zero)

    private var backoff: Backoff { Backoff(initial: initialDelay, maximum: maximumDelay, jitter: jitter) }

    /// The longest wait before send number `attempt + 1` (attempt counts from 1).
    func delay(after attempt: Int, retryAfter: Int?) -> Duration {
        wait(backoff.ceiling(forAttempt: attempt), retryAfter: retryAfter)
    }

    /// The wait before send number `attempt + 1`: its ``delay(after:retryAfter:)`` less a
    /// random share, but never shorter than the server's `Retry-After`.
    func jitteredDelay(after attempt: Int, retryAfter: Int?) -> Duration {
        wait(backoff.delay(forAttempt: attempt), retryAfter: retryAfter)
    }

    private func wait(_ delay: Duration, retryAfter: Int?) -> Duration {
        min(max(delay, .seconds(retryAfter ?? 0)), maximumDelay)
    }
}
