import Testing

/// Waits until `condition` holds, checking every few milliseconds; records an issue at the
/// caller when it still does not after `limit`.
func waitUntil(
    _ what: Comment, limit: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
