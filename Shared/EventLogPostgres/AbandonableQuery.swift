import EventLog
import Logging
import PostgresNIO
import Synchronization

extension PostgresClient {
    /// ``PostgresClient/query(_:logger:file:line:)``, but the caller gets an answer when its task is
    /// cancelled or `patience` passes, even if the query itself never answers.
    ///
    /// PostgresNIO 1.33 does not always answer a query written onto a connection that the
    /// server is closing at that very moment (a restart, a fail-over): the query's promise is
    /// never completed and the wait ignores cancellation, so a request deadline could not end
    /// it (seen as requests that never finished while PostgreSQL restarted). Here the query
    /// runs in a task of its own; on cancellation the caller gets `CancellationError`, after
    /// `patience` ``PostgresQueryAbandoned``, and a query that never answers is left behind.
    @discardableResult
    func queryAbandonable(
        _ query: PostgresQuery, logger: Logger, patience: Duration = .seconds(30), file: String = #fileID, line: Int = #line
    ) async throws -> PostgresRowSequence {
        try await abandonable(patience: patience) {
            try await self.query(query, logger: logger, file: file, line: line)
        }
    }
}

/// A query that did not answer within its patience and was given up.
public struct PostgresQueryAbandoned: Error, CustomStringConvertible {
    public let patience: Duration
    public var description: String { "PostgreSQL did not answer within \(patience)" }
}

/// Runs `operation` in a task of its own (on `executor` when one is given) and returns its
/// result, or throws `CancellationError` as soon as the calling task is cancelled, or
/// ``PostgresQueryAbandoned`` after `patience` (within ``DeadlineWatch/resolution``):
/// whichever comes first. The operation is cancelled when it loses.
func abandonable<T: Sendable>(
    patience: Duration, on executor: (any TaskExecutor)? = nil, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    let work = Task(executorPreference: executor) {
        do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
    }
    defer { work.cancel() }
    return try await outcome.value(patience: patience)
}

/// `future`'s value, or `CancellationError` as soon as the calling task is cancelled, or
/// ``PostgresQueryAbandoned`` after `patience`: ``abandonable(patience:on:_:)`` for work that
/// already runs on an event loop, with no task of its own.
func abandonable<T: Sendable>(patience: Duration, _ future: EventLoopFuture<T>) async throws -> T {
    let outcome = Outcome<T>()
    future.whenComplete { outcome.settle($0) }
    return try await outcome.value(patience: patience)
}

/// The first result offered to it, handed to the one waiter whether it arrives before or after.
final class Outcome<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
        case delivered
    }

    private let state = Mutex(State.empty)

    func settle(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .settled, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// The result, or `CancellationError` as soon as the calling task is cancelled, or
    /// ``PostgresQueryAbandoned`` after `patience`: whichever comes first.
    func value(patience: Duration) async throws -> T {
        // One shared watch rather than a timer task per statement: a cancelled `Task.sleep`
        // keeps its timer until the deadline, thousands a second under load (issue 17).
        let deadline = DeadlineWatch.shared.add(deadline: .now + patience) {
            self.settle(.failure(PostgresQueryAbandoned(patience: patience)))
        }
        defer { DeadlineWatch.shared.remove(deadline) }
        return try await withTaskCancellationHandler {
            try await value()
        } onCancel: {
            self.settle(.failure(CancellationError()))
        }
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLock { state in
                switch state {
                case .settled(let result):
                    state = .delivered
                    return result
                case .empty:
                    state = .waiting(continuation)
                    return nil
                case .waiting, .delivered:
                    preconditionFailure("one waiter only")
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
