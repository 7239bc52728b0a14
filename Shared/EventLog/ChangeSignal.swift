import Synchronization

/// A generation counter that readers can wait on, with a timeout.
///
/// A store fires it after its own appends and when PostgreSQL notifies it of others';
/// subscriptions wait on it between polls, so a missed signal only costs a poll interval.
/// A fire may name the categories it is about: a waiter for some categories wakes only for
/// those (and for fires about everything), so an append does not wake every reader of the log.
public final class ChangeSignal: Sendable {
    private struct Waiter {
        var categories: Set<String>?
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        /// Every fire.
        var generation: UInt64 = 0
        /// Fires about every category.
        var everything: UInt64 = 0
        var byCategory: [String: UInt64] = [:]
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        var cancelled: Set<UInt64> = []
        /// Every category a reader has asked about, and whom to tell of a new one.
        var askedAbout: Set<String> = []
        var onNewCategories: (@Sendable (Set<String>) -> Void)?

        func generation(for categories: Set<String>?) -> UInt64 {
            guard let categories else { return generation }
            return categories.reduce(everything) { $0 &+ (byCategory[$1] ?? 0) }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of times the signal has fired.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// A count that moves whenever the signal fires about any of `categories`, or about
    /// everything; every fire when nil. What ``wait(after:timeout:for:)`` compares with.
    public func generation(for categories: Set<String>?) -> UInt64 {
        let (generation, new) = state.withLock { state in
            (state.generation(for: categories), Self.noteAsked(categories, in: &state))
        }
        if let new { new.tell(new.categories) }
        return generation
    }

    /// Calls `tell` now with every category readers have asked about so far (through
    /// ``generation(for:)`` or a wait), then with each category asked about for the first
    /// time, as it is. A store that hears other processes' appends by category
    /// listens to those (see `PostgresEventStore`).
    public func whenAskedAboutNewCategories(_ tell: @escaping @Sendable (Set<String>) -> Void) {
        let asked = state.withLock { state in
            state.onNewCategories = tell
            return state.askedAbout
        }
        if !asked.isEmpty { tell(asked) }
    }

    private static func noteAsked(
        _ categories: Set<String>?, in state: inout State
    )
        -> (categories: Set<String>, tell: @Sendable (Set<String>) -> Void)?
    {
        guard let categories, !categories.isSubset(of: state.askedAbout) else { return nil }
        let new = categories.subtracting(state.askedAbout)
        state.askedAbout.formUnion(new)
        return state.onNewCategories.map { (new, $0) }
    }

    /// Wakes every waiter.
    public func fire() {
        let woken = state.withLock { state in
            state.generation &+= 1
            state.everything &+= 1
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Wakes the waiters for any of `categories`, and those for every category.
    public func fire(categories: some Sequence<String>) {
        let categories = Set(categories)
        let woken = state.withLock { state in
            state.generation &+= 1
            for category in categories { state.byCategory[category, default: 0] &+= 1 }
            var woken: [CheckedContinuation<Bool, Never>] = []
            for (id, waiter) in state.waiters where waiter.categories.map({ !$0.isDisjoint(with: categories) }) ?? true {
                woken.append(waiter.continuation)
                state.waiters[id] = nil
            }
            return woken
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Returns once the signal has fired about `categories` (any fire when nil) since `seen`
    /// was read with ``generation(for:)``, after `timeout`, or on cancellation. True when a
    /// fire ended the wait.
    @discardableResult
    public func wait(after seen: UInt64, timeout: Duration, for categories: Set<String>? = nil) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitForFire(after: seen, categories: categories) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func waitForFire(after seen: UInt64, categories: Set<String>?) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter &+= 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (resumeNow, new): (Bool?, (categories: Set<String>, tell: @Sendable (Set<String>) -> Void)?) = state.withLock { state in
                    let new = Self.noteAsked(categories, in: &state)
                    if state.cancelled.remove(id) != nil { return (false, new) }
                    if state.generation(for: categories) != seen { return (true, new) }
                    state.waiters[id] = Waiter(categories: categories, continuation: continuation)
                    return (nil, new)
                }
                if let new { new.tell(new.categories) }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume(returning: false)
        }
    }
}
