import EventLog
import Synchronization

/// Runs `operation`, or gives up after `limit` (within ``DeadlineWatch/resolution``): the
/// operation is cancelled, and ``DeadlinePassed`` thrown once it has ended. It never outlives
/// the call, whichever way it ends.
///
/// The operation runs in a task of its own, and the deadline is one entry in the shared
/// ``DeadlineWatch``: every request has one, and a task group with a `Task.sleep` beside the
/// operation cost each request a second task and a timer (issue 17).
public func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let passed = DeadlineFlag()
    let work = Task { try await operation() }
    let deadline = DeadlineWatch.shared.add(deadline: .now + limit) {
        passed.set()
        work.cancel()
    }
    let result = await withTaskCancellationHandler {
        await work.result
    } onCancel: {
        work.cancel()
    }
    DeadlineWatch.shared.remove(deadline)
    if case .failure = result, passed.isSet { throw DeadlinePassed(limit: limit) }
    return try result.get()
}

/// Whether a deadline has passed.
private final class DeadlineFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// An operation took longer than its deadline.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "did not finish within \(limit)" }
}
