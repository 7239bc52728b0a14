import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests with `URLSession` (FoundationNetworking on Linux).
///
/// A request belongs to the task that sends it: cancelling that task cancels the
/// `URLSessionDataTask` and `send` throws `CancellationError` at once, without waiting for
/// the timeout or for the session to report the cancellation.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession
    private let timeout: TimeInterval
    /// Seconds a live stream may stay silent before it counts as dropped.
    let streamIdleTimeout: TimeInterval

    /// - Parameters:
    ///   - session: the session to use (default: an ephemeral one, no cookies or cache); a
    ///     live stream uses a session of its own with this one's configuration.
    ///   - timeout: seconds one request may take (default 30).
    ///   - streamIdleTimeout: seconds a live stream may go without a byte before it is taken
    ///     for dropped and reconnected (default 60; the services send a keep-alive every 15).
    public init(session: URLSession? = nil, timeout: TimeInterval = 30, streamIdleTimeout: TimeInterval = 60) {
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.timeout = timeout
        self.streamIdleTimeout = streamIdleTimeout
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let immutable = Self.urlRequest(request, timeout: timeout)
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: immutable) { data, response, error in
                    exchange.finish(Self.result(data: data, response: response, error: error))
                }
                exchange.start(task, answering: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    static func urlRequest(_ request: HTTPRequestData, timeout: TimeInterval) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// The session's error as the transport throws it: a cancelled task is a `CancellationError`.
    static func thrown(_ error: any Error) -> any Error {
        (error as? URLError)?.code == .cancelled ? CancellationError() : error
    }

    /// Status and headers (names lowercased), or nil when the response is not HTTP.
    static func head(of response: URLResponse?) -> HTTPResponseHead? {
        guard let http = response as? HTTPURLResponse else { return nil }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponseHead(status: http.statusCode, headers: headers)
    }

    private static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<HTTPResponseData, any Error> {
        if let error { return .failure(thrown(error)) }
        guard let head = head(of: response) else { return .failure(URLError(.badServerResponse)) }
        return .success(HTTPResponseData(status: head.status, headers: head.headers, body: data ?? Data()))
    }
}

/// One request on its way: the data task and the continuation its caller waits on. The
/// continuation is resumed exactly once, by whichever comes first of the session's answer
/// and the caller's cancellation; a cancellation before the task starts means it never does.
private final class Exchange: Sendable {
    private struct State: Sendable {
        var task: URLSessionDataTask?
        var continuation: CheckedContinuation<HTTPResponseData, any Error>?
        var cancelled = false
    }

    private let state = Locked(State())

    /// Starts `task`, unless the caller was cancelled already.
    func start(_ task: URLSessionDataTask, answering continuation: CheckedContinuation<HTTPResponseData, any Error>) {
        let cancelled = state.withLock { state in
            if !state.cancelled {
                state.task = task
                state.continuation = continuation
            }
            return state.cancelled
        }
        if cancelled {
            task.cancel()
            continuation.resume(throwing: CancellationError())
        } else {
            task.resume()
        }
    }

    /// Hands the session's answer to the caller, unless a cancellation did already.
    func finish(_ result: Result<HTTPResponseData, any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// Cancels the data task and ends the caller's wait now.
    func cancel() {
        let (task, continuation) = state.withLock { state in
            defer {
                state.cancelled = true
                state.continuation = nil
            }
            return (state.task, state.continuation)
        }
        task?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
