import EventLog
import Synchronization
import Testing

/// The one watch that every statement's patience shares (issue 17).
@Suite("Deadlines of statements")
struct DeadlineWatchTests {
    @Test("a deadline that passes expires once, soon after; one removed in time never does; the watch restarts after idling")
    func expiresOnce() async throws {
        let watch = DeadlineWatch(resolution: .milliseconds(20))
        let fired = Mutex([String]())
        for round in 0..<2 {
            _ = watch.add(deadline: .now + .milliseconds(50)) { fired.withLock { $0.append("due \(round)") } }
            let removed = watch.add(deadline: .now + .milliseconds(50)) { fired.withLock { $0.append("removed \(round)") } }
            watch.remove(removed)
            // Soon after: within seconds even on a machine busy with other suites.
            let deadline = ContinuousClock.now + .seconds(10)
            while fired.withLock({ $0.count }) <= round, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(100))
            #expect(fired.withLock { $0 } == (0...round).map { "due \($0)" })
        }
    }
}
