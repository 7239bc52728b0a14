/// Runs `operation`, or gives up after `limit`: the operation is cancelled and
/// ``DeadlinePassed`` thrown.
public func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlinePassed(limit: limit)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// An operation took longer than its deadline.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "did not finish within \(limit)" }
}
