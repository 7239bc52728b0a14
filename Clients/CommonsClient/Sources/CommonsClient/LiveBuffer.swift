/// The events of a live stream between the connection that receives them and the reader:
/// at most `limit` unread, the newest kept. Once it has dropped some, the reader's next read
/// throws ``LiveStreamGap`` and the stream is over. Without a bound a reader that stops
/// reading (a view off screen that still holds its task) would let a busy list's changes
/// grow the app's memory for as long as the connection lasts.
final class LiveBuffer<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var unread: [(value: Value, id: String?)] = []
        var dropped = 0
        var lastReadId: String?
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<Value?, any Error>?
        var over = false
    }

    private let limit: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - limit: the most events held unread (at least 1).
    ///   - resumeAfter: the id the stream starts after.
    init(limit: Int, resumeAfter: String?) {
        self.limit = max(1, limit)
        state.withLock { $0.lastReadId = resumeAfter }
    }

    /// Hands `value`, the event `id`, to a waiting reader, else holds it, dropping the oldest
    /// held one when `limit` are held already.
    func push(_ value: Value, id: String?) {
        let reader = state.withLock { state -> CheckedContinuation<Value?, any Error>? in
            guard !state.over, state.end == nil else { return nil }
            if let reader = state.reader {
                state.reader = nil
                state.lastReadId = id
                return reader
            }
            state.unread.append((value, id))
            if state.unread.count > limit {
                state.unread.removeFirst()
                state.dropped += 1
            }
            return nil
        }
        reader?.resume(returning: value)
    }

    /// Ends the stream once what is held has been read: by ending, or by throwing `error`.
    func finish(throwing error: (any Error)? = nil) {
        let end: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        let reader = state.withLock { state -> CheckedContinuation<Value?, any Error>? in
            guard !state.over, state.end == nil else { return nil }
            state.end = end
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(with: end.map { nil })
    }

    /// The next event; nil once the stream has ended (or the reading task is cancelled);
    /// throws the stream's error, or ``LiveStreamGap`` when events were dropped.
    func next() async throws -> Value? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer = state.withLock { state -> Result<Value?, any Error>? in
                    if state.over { return .success(nil) }
                    if state.dropped > 0 {
                        state.over = true
                        let gap = LiveStreamGap(
                            dropped: state.dropped, resumeAfter: state.lastReadId, newest: state.unread.map(\.value),
                            newestId: state.unread.last?.id)
                        state.unread = []
                        return .failure(gap)
                    }
                    if !state.unread.isEmpty {
                        let first = state.unread.removeFirst()
                        state.lastReadId = first.id
                        return .success(first.value)
                    }
                    if let end = state.end {
                        state.over = true
                        return end.map { nil }
                    }
                    if Task.isCancelled {
                        state.over = true
                        return .success(nil)
                    }
                    state.reader = continuation
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let reader = state.withLock { state -> CheckedContinuation<Value?, any Error>? in
                state.over = true
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: nil)
        }
    }
}
