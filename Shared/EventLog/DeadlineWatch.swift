import Synchronization

/// Deadlines of many short waits at once, checked by one sleeping task: adding and removing
/// one costs a lock, where a timer task per wait would stay scheduled until its deadline
/// long after the wait ended (a `Task.sleep` cancelled early still holds its timer).
/// Deadlines are met within ``resolution``.
public final class DeadlineWatch: Sendable {
    /// The one the log's statements and the services' request deadlines share.
    public static let shared = DeadlineWatch(resolution: .milliseconds(100))

    /// How late a deadline may be noticed.
    public let resolution: Duration

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var watching = false
    }

    private let state = Mutex(State())

    public init(resolution: Duration) {
        self.resolution = resolution
    }

    /// Calls `expire` once `deadline` has passed, unless ``remove(_:)`` is called first with
    /// the id returned.
    public func add(deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, start) = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, expire: expire)
            defer { state.watching = true }
            return (state.nextID, !state.watching)
        }
        if start { Task.detached { await self.watch() } }
        return id
    }

    public func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Wakes every ``resolution`` while any deadline is pending, and ends when none is.
    private func watch() async {
        while true {
            try? await Task.sleep(for: resolution)
            let now = ContinuousClock.now
            let (expired, done): ([Entry], Bool) = state.withLock { state in
                let due = state.entries.filter { $0.value.deadline <= now }
                for id in due.keys { state.entries.removeValue(forKey: id) }
                if state.entries.isEmpty { state.watching = false }
                return (Array(due.values), state.entries.isEmpty)
            }
            for entry in expired { entry.expire() }
            if done { return }
        }
    }
}
