import CLibPQ
import EventLog
import EventLogPostgres
import Foundation
import Logging
import Synchronization

/// Holds one LISTEN connection on a thread of its own, which waits for the connection's
/// socket to be readable (`poll`), reads what came (`PQconsumeInput`, `PQnotifies`) and fires
/// the store's ``ChangeSignal`` for the categories each payload names, as the PostgresNIO
/// store's listener does: a notification the store sent itself is skipped, one that names no
/// category fires for everything. When the connection drops it fires once (something may have
/// been missed) and reconnects with back-off; meanwhile subscribers fall back to polling.
final class LibPQListener: Sendable {
    /// What the connection listens to: every append, or only the categories asked about.
    enum Hearing: Sendable { case everything, categoriesAskedAbout }

    private struct State {
        var stopped = false
        /// Categories asked about; those not yet listened to on the current connection wait in `adding`.
        var categories: Set<String> = []
        var adding: [String] = []
    }

    private let connectionString: String
    private let channels: NotificationChannels
    private let hearing: Hearing
    private let changes: ChangeSignal
    private let logger: Logger
    private let state = Mutex(State())
    private let connectionCount = Atomic<Int>(0)
    private let delivery: NotificationDelivery

    /// How long the thread waits on the socket before it looks for new categories or a stop.
    private static let wakeEvery: Int32 = 100

    init(
        connectionString: String, channels: NotificationChannels, hearing: Hearing, changes: ChangeSignal, origin: NotificationOrigin,
        logger: Logger
    ) {
        self.connectionString = connectionString
        self.channels = channels
        self.hearing = hearing
        self.changes = changes
        delivery = NotificationDelivery(changes: changes, origin: origin)
        self.logger = logger
    }

    /// How many times the LISTEN connection has been established.
    var connections: Int { connectionCount.load(ordering: .relaxed) }

    /// How many of the store's own notifications came back and were skipped.
    var ownNotificationsSkipped: Int { delivery.ownNotificationsSkipped }

    func start() {
        if hearing == .categoriesAskedAbout {
            changes.whenAskedAboutNewCategories { [weak self] categories in self?.hear(categories) }
        }
        let thread = Thread { [self] in run() }
        thread.name = "commons libpq listener"
        thread.start()
    }

    /// Stops the thread; it closes its connection within ``wakeEvery`` milliseconds.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func hear(_ categories: Set<String>) {
        state.withLock { state in
            let new = categories.filter { StreamName.isCategory($0) && !state.categories.contains($0) }
            state.categories.formUnion(new)
            state.adding += new.sorted()
        }
    }

    private func run() {
        var pause = 0.1
        while !isStopped {
            let established = connections
            if let connection = PQconnectdb(connectionString) {
                if PQstatus(connection) == CONNECTION_OK {
                    listen(on: connection)
                }
                if !isStopped {
                    logger.warning(
                        "event log LISTEN connection lost; polling until it is back",
                        metadata: ["error": "\(LibPQError(connection: connection, "lost"))"])
                }
                PQfinish(connection)
            }
            if isStopped { return }
            if connections != established { pause = 0.1 }
            changes.fire()
            var waited = 0.0
            while waited < pause, !isStopped {
                Thread.sleep(forTimeInterval: 0.05)
                waited += 0.05
            }
            pause = min(pause * 2, 5)
        }
    }

    /// Listens on `connection` until it fails or the listener stops.
    private func listen(on connection: OpaquePointer) {
        let first: [String] =
            switch hearing {
            case .everything: [channels.everything]
            case .categoriesAskedAbout:
                state.withLock { state in
                    state.adding = []
                    return state.categories.sorted().map(channels.channel(for:))
                }
            }
        for channel in first where !Self.listen(to: channel, on: connection) { return }
        connectionCount.add(1, ordering: .relaxed)
        changes.fire()
        var socket = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        while !isStopped {
            let added = state.withLock { state in
                defer { state.adding = [] }
                return state.adding
            }
            for category in added {
                guard Self.listen(to: channels.channel(for: category), on: connection) else { return }
                changes.fire(categories: CollectionOfOne(category))
            }
            socket.revents = 0
            let ready = poll(&socket, 1, Self.wakeEvery)
            if ready < 0, errno != EINTR { return }
            guard ready > 0 else { continue }
            guard PQconsumeInput(connection) == 1 else { return }
            while let notification = PQnotifies(connection) {
                let payload = notification.pointee.extra.map { String(cString: $0) } ?? ""
                PQfreemem(notification)
                delivery.deliver(payload)
            }
            if PQstatus(connection) != CONNECTION_OK { return }
        }
    }

    /// Sends `LISTEN` for `channel`; false when the connection failed.
    private static func listen(to channel: String, on connection: OpaquePointer) -> Bool {
        let quoted = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let result = PQexec(connection, "LISTEN \(quoted)")
        defer { PQclear(result) }
        return result.map { PQresultStatus($0) == PGRES_COMMAND_OK } ?? false
    }

}
