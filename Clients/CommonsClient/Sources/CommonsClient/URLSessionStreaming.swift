import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport: HTTPStreamingTransport {
    /// Streams with a data task whose delegate hands on each piece of the body as it comes;
    /// unlike `bytes(for:)`, this works with FoundationNetworking on Linux too. Each stream has
    /// a session of its own (the delegate is the session's), ended with the stream.
    public func stream(_ request: HTTPRequestData) async throws -> (head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>) {
        let connection = StreamingConnection(idleTimeout: .seconds(streamIdleTimeout))
        let session = URLSession(configuration: session.configuration, delegate: connection, delegateQueue: nil)
        let task = session.dataTask(with: Self.urlRequest(request, timeout: streamIdleTimeout))
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                connection.start(task, in: session, answering: continuation)
            }
        } onCancel: {
            connection.cancel()
        }
        return (head, connection.body)
    }
}

/// One streamed response: the delegate of its session, which resumes the caller with the
/// head and then feeds the body's sequence. Whatever ends it first (the response's end, a
/// broken connection, silence longer than the idle timeout, the caller's cancellation, the
/// body's consumer going away) ends the data task and the session, once.
private final class StreamingConnection: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: Sendable {
        var session: URLSession?
        var head: CheckedContinuation<HTTPResponseHead, any Error>?
        var ended = false
        var lastHeard = ContinuousClock.now
        var watchdog: Task<Void, Never>?
    }

    let body: AsyncThrowingStream<Data, any Error>
    private let feed: AsyncThrowingStream<Data, any Error>.Continuation
    private let idleTimeout: Duration
    private let state = Locked(State())

    init(idleTimeout: Duration) {
        self.idleTimeout = idleTimeout
        var feed: AsyncThrowingStream<Data, any Error>.Continuation?
        body = AsyncThrowingStream { feed = $0 }
        // The initializer's closure runs at once, so the continuation is there.
        self.feed = feed!
        super.init()
        // Cancelling the consuming task, or dropping the sequence, ends the request.
        self.feed.onTermination = { [weak self] _ in self?.end(throwing: CancellationError()) }
    }

    /// Starts `task`, unless the caller was cancelled already.
    func start(_ task: URLSessionDataTask, in session: URLSession, answering head: CheckedContinuation<HTTPResponseHead, any Error>) {
        let ended = state.withLock { state in
            if !state.ended {
                state.session = session
                state.head = head
                state.lastHeard = .now
                state.watchdog = watch()
            }
            return state.ended
        }
        if ended {
            session.invalidateAndCancel()
            head.resume(throwing: CancellationError())
        } else {
            task.resume()
        }
    }

    /// Cancels the request; a caller still waiting for the head gets `CancellationError` now.
    func cancel() {
        end(throwing: CancellationError())
    }

    /// Ends the request with `error` unless it has ended already.
    private func end(throwing error: any Error) {
        let (session, head, watchdog) = state.withLock { state in
            defer {
                state.ended = true
                state.head = nil
                state.session = nil
                state.watchdog = nil
            }
            return (state.session, state.head, state.watchdog)
        }
        watchdog?.cancel()
        // The sequence ends with `error` before the session is cancelled: the cancellation's
        // own completion, on the delegate queue, must not end it first as a CancellationError
        // (a live stream would then stop instead of reconnecting after an idle timeout).
        head?.resume(throwing: error)
        feed.finish(throwing: error)
        session?.invalidateAndCancel()
    }

    /// Ends the request once nothing has come for `idleTimeout`. URLSession's own timeout
    /// cannot be relied on for this: FoundationNetworking does not apply it once the body flows.
    private func watch() -> Task<Void, Never> {
        Task { [weak self, idleTimeout] in
            var wait = idleTimeout
            while (try? await Task.sleep(for: wait)) != nil {
                guard let self else { return }
                let silent = ContinuousClock.now - state.withLock { $0.lastHeard }
                if silent >= idleTimeout {
                    end(throwing: URLError(.timedOut))
                    return
                }
                wait = idleTimeout - silent
            }
        }
    }

    private func heard() {
        state.withLock { $0.lastHeard = .now }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = state.withLock { state in
            defer {
                state.head = nil
                state.lastHeard = .now
            }
            return state.head
        }
        if let parsed = URLSessionTransport.head(of: response) {
            head?.resume(returning: parsed)
            completionHandler(.allow)
        } else {
            head?.resume(throwing: URLError(.badServerResponse))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        heard()
        feed.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (head, watchdog) = state.withLock { state in
            defer {
                state.ended = true
                state.head = nil
                state.session = nil
                state.watchdog = nil
            }
            return (state.head, state.watchdog)
        }
        watchdog?.cancel()
        // Invalidating lets the session release its delegate.
        session.finishTasksAndInvalidate()
        let thrown = error.map(URLSessionTransport.thrown)
        head?.resume(throwing: thrown ?? URLError(.badServerResponse))
        if let thrown { feed.finish(throwing: thrown) } else { feed.finish() }
    }
}
