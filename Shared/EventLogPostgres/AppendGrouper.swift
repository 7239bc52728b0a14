import Synchronization

/// Group commit for single-event appends: at most `slots` run at once, each in its own
/// statement; those that arrive while every slot is busy wait, and when a slot frees, all
/// that wait (one per stream, at most `largestGroup`) go together in one statement and one
/// transaction (``AppendGroupStatement``).
///
/// An append on a quiet log never waits. Under load, a round trip and a commit serve many
/// appends, which is where the client's and the server's time went. A grouped append that
/// the group could not make (its expectation failed, a key was taken, the statement
/// failed) is made alone afterwards, by the same path as any other, so every answer is the
/// one it would have had alone.
package final class AppendGrouper: Sendable {
    /// What an append may do once admitted.
    package enum Admission: Sendable {
        /// Append alone, then ``release()`` the slot.
        case slot
        /// The group appended it.
        case appended(AppendRow)
        /// The group did not append it; append alone, without a slot.
        case alone
    }

    private struct Waiting {
        var append: GroupedAppend
        var continuation: CheckedContinuation<Admission, Never>
    }

    private struct State {
        var busy = 0
        var waiting: [Waiting] = []
    }

    let slots: Int
    let largestGroup: Int
    private let state = Mutex(State())
    private let groups = Atomic<Int>(0)
    private let grouped = Atomic<Int>(0)
    private let run: @Sendable ([GroupedAppend]) async throws -> [AppendRow]

    /// - Parameter run: executes the group statement and returns its rows, one per append.
    package init(slots: Int, largestGroup: Int = 100, run: @escaping @Sendable ([GroupedAppend]) async throws -> [AppendRow]) {
        self.slots = max(1, slots)
        self.largestGroup = max(2, largestGroup)
        self.run = run
    }

    /// How many group statements have been sent.
    package var groupsSent: Int { groups.load(ordering: .relaxed) }

    /// How many appends the group statements sent carried, whether the group appended them or not.
    package var appendsGrouped: Int { grouped.load(ordering: .relaxed) }

    /// How many appends wait for a slot (for tests).
    var waitingAppends: Int { state.withLock { $0.waiting.count } }

    /// Whether at most one append holds a slot and none waits: an append that holds a slot
    /// and sees this is the only one this process is making.
    package var isOnlyAppend: Bool { state.withLock { $0.busy <= 1 && $0.waiting.isEmpty } }

    /// A slot at once when one is free; otherwise the outcome of the group it joins.
    package func admit(_ append: GroupedAppend) async -> Admission {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state in
                if state.busy < slots, state.waiting.isEmpty {
                    state.busy += 1
                    return true
                }
                state.waiting.append(Waiting(append: append, continuation: continuation))
                return false
            }
            if admitted { continuation.resume(returning: .slot) }
        }
    }

    /// Frees a slot: it passes to the appends waiting, if any.
    package func release() {
        let group = state.withLock { state -> [Waiting]? in
            guard !state.waiting.isEmpty else {
                state.busy -= 1
                return nil
            }
            var streams = Set<String>()
            var taken: [Waiting] = []
            var kept: [Waiting] = []
            for waiting in state.waiting {
                if taken.count < largestGroup, streams.insert(waiting.append.stream).inserted {
                    taken.append(waiting)
                } else {
                    kept.append(waiting)
                }
            }
            state.waiting = kept
            return taken
        }
        guard let group else { return }
        guard group.count > 1 else {
            group[0].continuation.resume(returning: .slot)
            return
        }
        groups.add(1, ordering: .relaxed)
        grouped.add(group.count, ordering: .relaxed)
        // Detached: the group serves many requests, so it takes on none's task-locals (trace).
        Task.detached { [self] in
            var outcomes = [Admission](repeating: .alone, count: group.count)
            if let rows = try? await run(group.map(\.append)), rows.count == group.count {
                for (index, row) in rows.enumerated() where row.position != nil { outcomes[index] = .appended(row) }
            }
            release()
            for (waiting, outcome) in zip(group, outcomes) { waiting.continuation.resume(returning: outcome) }
        }
    }
}
