import Dispatch
import EventLogPostgres
import Logging
import Synchronization

/// Tells other processes of appends with `NOTIFY`, paced as the PostgresNIO store's
/// `AppendNotifier` is (at most one per ``spacing``, the payload the store's mark then the
/// categories appended to since the last): a lone append carries the notification in its own
/// statement when one is due (``carry(category:)``); otherwise the categories wait, and one
/// `NOTIFY` statement of its own sends them, queued on the pool without a task.
final class LibPQNotifier: Sendable {
    private struct State {
        var pending: Set<String> = []
        var pacing = NotificationPacing(spacing: LibPQNotifier.spacing)
        var scheduled = false
        var sending = false
    }

    static let spacing = Duration.milliseconds(2)
    static let statement = PreparedSQL("commons_notify_channels", LogStatementText.notify, [.textArray, .text])

    private let pool: LibPQPool
    private let channels: NotificationChannels
    private let origin: NotificationOrigin
    private let logger: Logger
    private let state = Mutex(State())

    init(pool: LibPQPool, channels: NotificationChannels, origin: NotificationOrigin, logger: Logger) {
        self.pool = pool
        self.channels = channels
        self.origin = origin
        self.logger = logger
    }

    /// The channels and payload an append to `category` should carry, when a notification is
    /// due and none is being sent; nil otherwise (the append then calls ``notify(category:)``).
    func carry(category: String) -> (channels: [String], payload: String, categories: [String])? {
        let categories: [String]? = state.withLock { state in
            guard !state.sending, state.pacing.delay(at: .now) == .zero else { return nil }
            state.pacing.started(at: .now)
            var categories = state.pending
            categories.insert(category)
            state.pending = []
            return categories.sorted()
        }
        guard let categories else { return nil }
        let (channels, payload) = notification(of: categories)
        return (channels, payload, categories)
    }

    /// Notifies of an append to `category` that carried no notification.
    func notify(category: String) {
        let delay: Duration? = state.withLock { state in
            state.pending.insert(category)
            if state.scheduled || state.sending { return nil }
            state.scheduled = true
            return state.pacing.delay(at: .now)
        }
        guard let delay else { return }
        guard delay > .zero else { return sendWaiting() }
        // Half a spacing later than due, so that a steady writer's next append carries it.
        let wait = delay + Self.spacing / 2
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(wait / .nanoseconds(1)))) { self.sendWaiting() }
    }

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
        let (channels, payload) = notification(of: categories)
        let job = StatementJob(sql: Self.statement, parameters: [.array(channels), .text(payload)], pipelinable: true) { result in
            if case .failure(let error) = result {
                self.logger.debug("NOTIFY failed; subscribers will poll", metadata: ["error": "\(error)"])
            }
            let more: String? = self.state.withLock { state in
                state.sending = false
                return state.pending.first
            }
            if let more { self.notify(category: more) }
        }
        pool.enqueue(.statement(job))
    }

    private func notification(of categories: [String]) -> (channels: [String], payload: String) {
        ([channels.everything] + categories.map(channels.channel(for:)), ([origin.mark] + categories).joined(separator: ","))
    }
}
