import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Tells other processes of appends with `NOTIFY`, at most one per `spacing`, so a burst of
/// appends costs a few notifications rather than one each. The payload is the store's
/// ``NotificationOrigin`` then the categories appended to since the last one, comma-separated,
/// so that a subscriber wakes only for its own; it goes to the log's channel and to each of
/// those categories' (``NotificationChannels``).
///
/// A notification goes one of two ways:
/// - **Carried by an append** (``carry(category:)``): when one is due as a single-event
///   append starts (the last began `spacing` ago or more, and none is being sent) and the
///   store makes no other append meanwhile (``AppendGrouper/isOnlyAppend``), that
///   append's own statement sends it, for its category and every one waiting, and PostgreSQL
///   delivers it as the append commits. This is how a lone append after a quiet spell, and
///   a steady writer every `spacing`, notify: no task, timer or statement of its own, which
///   cost the writer about as much CPU as the append itself (issue 17; `commons bench
///   eventlog` prints the CPU an event costs).
/// - **Sent on its own** (``notify(category:)``, after an append that carried nothing):
///   the categories wait, and if no append has carried them `spacing` and a half after the
///   last notification began, one `NOTIFY` statement sends them (a timer on an event loop).
///
/// A transaction that notifies holds a cluster-wide lock from its commit's start to its
/// end, its flush included, so that notifications queue in commit order: carried by every
/// append, that would serialize every commit. Paced, at most one append a `spacing` in each
/// process carries it, and only when that process makes no other append meanwhile.
package final class AppendNotifier: Sendable {
    private struct State {
        var pending: Set<String> = []
        var pacing = NotificationPacing(spacing: AppendNotifier.spacing)
        /// A send of its own is waiting for its timer.
        var scheduled = false
        /// A `NOTIFY` statement of its own is running.
        var sending = false
    }

    /// Sends a `NOTIFY` statement of its own, then calls its completion with the error if any.
    package typealias Send = @Sendable (Notification, _ sent: @escaping @Sendable ((any Error)?) -> Void) -> Void

    private let send: Send
    private let channels: NotificationChannels
    private let origin: NotificationOrigin
    private let logger: Logger
    private let state = Mutex(State())
    private let sentAlone = Atomic<Int>(0)
    private let carried = Atomic<Int>(0)
    package static let spacing = Duration.milliseconds(2)

    /// - Parameter send: how this store sends a notification in a statement of its own.
    package init(channels: NotificationChannels, origin: NotificationOrigin, logger: Logger, send: @escaping Send) {
        self.send = send
        self.channels = channels
        self.origin = origin
        self.logger = logger
    }

    /// Whether no `NOTIFY` statement is being sent or waits to be (for tests: a send takes one
    /// of the store's own connections for a moment).
    package var isQuiet: Bool { state.withLock { !$0.sending && !$0.scheduled } }

    /// How many notifications went in statements of their own, and how many appends carried
    /// one (for tests).
    package var sends: (alone: Int, carried: Int) { (sentAlone.load(ordering: .relaxed), carried.load(ordering: .relaxed)) }

    /// The notification an append to `category` should carry in its own statement, when one
    /// is due; nil when none is (the append then calls ``notify(category:)`` once it has
    /// committed). An append that carried one and did not commit, or appended nothing, hands
    /// it back with ``carryFailed(_:)``.
    package func carry(category: String) -> Notification? {
        let categories: [String]? = state.withLock { state in
            guard !state.sending, state.pacing.delay(at: .now) == .zero else { return nil }
            state.pacing.started(at: .now)
            var categories = state.pending
            categories.insert(category)
            state.pending = []
            return categories.sorted()
        }
        guard let categories else { return nil }
        carried.add(1, ordering: .relaxed)
        return notification(of: categories)
    }

    /// A carried notification that PostgreSQL may not have sent: its categories wait again.
    package func carryFailed(_ notification: Notification) {
        for category in notification.categories { notify(category: category) }
    }

    /// Notifies the other processes of an append to `category` that carried no notification.
    package func notify(category: String) {
        let delay: Duration? = state.withLock { state in
            state.pending.insert(category)
            if state.scheduled || state.sending { return nil }
            state.scheduled = true
            return state.pacing.delay(at: .now)
        }
        guard let delay else { return }
        // Half a spacing longer than the pacing asks, so that a steady writer's next append,
        // which carries the notification, comes first and this finds nothing left to send.
        let wait = delay == .zero ? .zero : delay + Self.spacing / 2
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(Int64(wait / .nanoseconds(1)))) { self.sendWaiting() }
    }

    /// Sends what waits, if anything, in a `NOTIFY` statement of its own; then again while
    /// more arrived meanwhile.
    private func sendWaiting() {
        let categories: [String]? = state.withLock { state in
            state.scheduled = false
            guard !state.pending.isEmpty, !state.sending else { return nil }
            state.sending = true
            state.pacing.started(at: .now)
            defer { state.pending = [] }
            return state.pending.sorted()
        }
        guard let categories else { return }
        sentAlone.add(1, ordering: .relaxed)
        send(notification(of: categories)) { error in
            if let error { self.notifyFailed(error) }
            self.sent()
        }
    }

    private func notifyFailed(_ error: any Error) {
        logger.debug("NOTIFY failed; subscribers will poll", metadata: ["error": "\(String(reflecting: error))"])
    }

    /// A `NOTIFY` of its own has been sent, or has failed.
    private func sent() {
        let more: String? = state.withLock { state in
            state.sending = false
            return state.pending.first
        }
        // What arrived while this was sent waits for its own turn, paced as ever.
        if let more { notify(category: more) }
    }

    private func notification(of categories: [String]) -> Notification {
        Notification(
            categories: categories, channels: [channels.everything] + categories.map(channels.channel(for:)),
            payload: ([origin.mark] + categories).joined(separator: ","))
    }

    /// A `NOTIFY` of some categories: the channels it goes to and its payload.
    package struct Notification: Sendable {
        package let categories: [String]
        package let channels: [String]
        package let payload: String
    }
}
