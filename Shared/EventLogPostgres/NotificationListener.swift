import Backoff
import Foundation
import EventLog
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// Holds one LISTEN connection and fires the store's ``ChangeSignal`` on every
/// notification, for the categories its payload names (for everything when it names none).
/// A notification the store sent itself is skipped: the store fired for those appends as
/// they committed, and a second fire would send its readers to the log again for nothing.
/// When the connection drops it fires once (something may have been missed) and
/// reconnects with back-off; meanwhile subscribers fall back to polling.
final class NotificationListener: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let channel: String
    private let changes: ChangeSignal
    /// The payload element by which the store's own notifications are known.
    private let ownMark: Substring
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let connectionCount = Atomic<Int>(0)
    private let ownSkipped = Atomic<Int>(0)

    init(configuration: PostgresConnection.Configuration, channel: String, changes: ChangeSignal, origin: NotificationOrigin, logger: Logger) {
        self.configuration = configuration
        self.channel = channel
        self.changes = changes
        ownMark = Substring(origin.mark)
        self.logger = logger
    }

    /// How many times the LISTEN connection has been established.
    var connections: Int { connectionCount.load(ordering: .relaxed) }

    /// How many of the store's own notifications came back and were skipped.
    var ownNotificationsSkipped: Int { ownSkipped.load(ordering: .relaxed) }

    func start() {
        task.withLock { $0 = Task { await self.run() } }
    }

    func stop() async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
    }

    private func run() async {
        var retries = Backoff(initial: .milliseconds(100), maximum: .seconds(5)).attempts()
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                    id: Int.random(in: 1...Int.max), logger: logger)
                do {
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: channel) { notifications in
                            connectionCount.add(1, ordering: .relaxed)
                            retries.reset()
                            changes.fire()
                            for try await notification in notifications { fire(for: notification.payload) }
                        }
                    } onCancel: {
                        connection.close().whenComplete { _ in }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning("event log LISTEN connection lost; polling until it is back", metadata: ["error": "\(String(reflecting: error))"])
            }
            changes.fire()
            try? await Task.sleep(for: retries.next())
        }
    }

    /// Fires for the categories in `payload` (see ``AppendNotifier``); for everything when
    /// it names none, as a notification from an older version or an operator does; not at
    /// all when the store sent it.
    private func fire(for payload: String) {
        let elements = payload.split(separator: ",")
        if elements.contains(ownMark) {
            ownSkipped.add(1, ordering: .relaxed)
            return
        }
        let categories = elements.filter { StreamName.isCategory($0) }
        if categories.isEmpty { changes.fire() } else { changes.fire(categories: categories.map(String.init)) }
    }
}

/// Which store sent a notification: a random mark, made once per store, that leads the
/// payload. It is not a category (it holds a `:`), so a version that does not know it reads
/// the categories after it and ignores the mark.
struct NotificationOrigin: Sendable {
    let mark: String

    init() { mark = "from:" + UUID().uuidString.lowercased() }
}

/// Sends `NOTIFY` after appends, one at a time and at most one per `spacing`, so a burst
/// of appends costs a few notifications rather than one query each; an append after a quiet
/// spell is notified at once (``NotificationPacing``). The payload is the
/// store's ``NotificationOrigin`` then the categories appended to since the last one,
/// comma-separated, so that a subscriber wakes only for its own.
///
/// It runs outside the append's transaction on purpose: a transaction that notifies
/// takes a cluster-wide lock at commit, which would serialize every append. Subscribers in
/// this process are woken directly; others see the append at most `spacing` later.
final class AppendNotifier: Sendable {
    private struct State {
        var sending = false
        var pending: Set<String> = []
        var pacing = NotificationPacing(spacing: AppendNotifier.spacing)
    }

    private let statements: StatementConnections
    private let channel: String
    private let origin: NotificationOrigin
    private let logger: Logger
    private let state = Mutex(State())
    static let spacing = Duration.milliseconds(2)

    init(statements: StatementConnections, channel: String, origin: NotificationOrigin, logger: Logger) {
        self.statements = statements
        self.channel = channel
        self.origin = origin
        self.logger = logger
    }

    /// Whether no `NOTIFY` is being sent or waits to be (for tests: a send takes one of the
    /// store's own connections for a moment).
    var isQuiet: Bool { state.withLock { !$0.sending } }

    /// Notifies the other processes of an append to `category`.
    func notify(category: String) {
        let start = state.withLock { state in
            state.pending.insert(category)
            if state.sending { return false }
            state.sending = true
            return true
        }
        guard start else { return }
        Task {
            while true {
                // Nothing left: stop at once, so the next append starts a send without waiting.
                let delay: Duration? = state.withLock { state in
                    guard !state.pending.isEmpty else {
                        state.sending = false
                        return nil
                    }
                    return state.pacing.delay(at: .now)
                }
                guard let delay else { return }
                if delay > .zero { try? await Task.sleep(for: delay) }
                let categories = state.withLock { state in
                    defer { state.pending = [] }
                    state.pacing.started(at: .now)
                    return state.pending
                }
                let payload = ([origin.mark] + categories.sorted()).joined(separator: ",")
                do {
                    _ = try await statements.execute(NotifyStatement(channel: channel, payload: payload), logger: logger)
                } catch {
                    logger.debug("NOTIFY failed; subscribers will poll", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}

/// `NOTIFY` of an append's categories, prepared once per connection like the log's statements.
struct NotifyStatement: PostgresPreparedStatement {
    static let name = "commons_notify"
    static let sql = "SELECT true FROM pg_notify($1, $2)"
    typealias Row = Bool

    var channel: String
    var payload: String

    func makeBindings() -> PostgresBindings { .of(channel, payload) }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}
