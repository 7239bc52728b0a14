/// Waits until `condition` holds, looking every 20 ms; throws after `patience`. For things
/// that take moments: the deadline only keeps a broken run from hanging, so it is far longer
/// than a loaded machine needs.
public func waitFor(_ what: String, patience: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + patience
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestSetupError("waited \(patience) for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
