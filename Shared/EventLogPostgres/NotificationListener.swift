import Backoff
import EventLog
import Foundation
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
///
/// It hears either every append (the log's channel) or, ``Hearing/categoriesAskedAbout``,
/// only appends to the categories this process's readers have asked about, each on a
/// channel of its own (``NotificationChannels``), added as readers first ask: a process
/// that follows a few categories is not woken for every append to the others.
final class NotificationListener: Sendable {
    /// What the connection listens to.
    enum Hearing: Sendable { case everything, categoriesAskedAbout }

    private struct Interest {
        var categories: Set<String> = []
        /// Where a new category goes while a connection is listening.
        var adding: AsyncStream<String>.Continuation?
    }

    private let configuration: PostgresConnection.Configuration
    private let channels: NotificationChannels
    private let hearing: Hearing
    private let changes: ChangeSignal
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let interest = Mutex(Interest())
    private let connectionCount = Atomic<Int>(0)
    private let delivery: NotificationDelivery

    init(
        configuration: PostgresConnection.Configuration, channels: NotificationChannels, hearing: Hearing, changes: ChangeSignal,
        origin: NotificationOrigin, logger: Logger
    ) {
        self.configuration = configuration
        self.channels = channels
        self.hearing = hearing
        self.changes = changes
        delivery = NotificationDelivery(changes: changes, origin: origin)
        self.logger = logger
    }

    /// How many times the LISTEN connection has been established (with the channels it
    /// had to listen to then).
    var connections: Int { connectionCount.load(ordering: .relaxed) }

    /// How many of the store's own notifications came back and were skipped.
    var ownNotificationsSkipped: Int { delivery.ownNotificationsSkipped }

    func start() {
        if hearing == .categoriesAskedAbout {
            changes.whenAskedAboutNewCategories { [weak self] categories in self?.hear(categories) }
        }
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

    /// Listens to the channels of `categories` too, now and on every later connection.
    private func hear(_ categories: Set<String>) {
        let (new, adding) = interest.withLock { interest in
            let new = categories.filter { StreamName.isCategory($0) && !interest.categories.contains($0) }
            interest.categories.formUnion(new)
            return (new, interest.adding)
        }
        for category in new { adding?.yield(category) }
    }

    private func run() async {
        var retries = Backoff(initial: .milliseconds(100), maximum: .seconds(5)).attempts()
        while !Task.isCancelled {
            let established = connections
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                    id: Int.random(in: 1...Int.max), logger: logger)
                do {
                    try await withTaskCancellationHandler {
                        try await listen(on: connection)
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
            if connections != established { retries.reset() }
            changes.fire()
            try? await Task.sleep(for: retries.next())
        }
    }

    /// Listens on `connection` to what ``hearing`` says, and to each category asked about
    /// meanwhile, until the connection ends. Counts the connection once its first channels
    /// are listened to, and fires then for everything; fires for a category added later
    /// once its channel is (a reader may have missed its notification just before).
    private func listen(on connection: PostgresConnection) async throws {
        let (added, adding) = AsyncStream.makeStream(of: String.self)
        let (ready, readying) = AsyncStream.makeStream(of: Void.self)
        let first: [String?] =
            switch hearing {
            case .everything: [nil]
            case .categoriesAskedAbout:
                interest.withLock { interest in
                    interest.adding = adding
                    return interest.categories.sorted()
                }
            }
        defer { interest.withLock { $0.adding = nil } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for category in first {
                group.addTask {
                    // Any channel's end ends them all: the connection is gone.
                    defer { adding.finish(); readying.finish() }
                    try await self.listen(to: category, on: connection) { readying.yield() }
                }
            }
            var listening = 0
            if !first.isEmpty {
                for await _ in ready {
                    listening += 1
                    if listening == first.count { break }
                }
            }
            guard listening == first.count else {
                // A LISTEN failed: end the others too, and let the caller reconnect.
                group.cancelAll()
                try await group.waitForAll()
                return
            }
            connectionCount.add(1, ordering: .relaxed)
            changes.fire()
            for await category in added {
                group.addTask {
                    defer { adding.finish() }
                    try await self.listen(to: category, on: connection) { self.changes.fire(categories: CollectionOfOne(category)) }
                }
            }
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// Listens to the channel of `category` (the log's, for every category, when nil) and
    /// fires for what it hears; `listening` once the `LISTEN` is in effect.
    private func listen(to category: String?, on connection: PostgresConnection, listening: @Sendable () -> Void) async throws {
        let channel = category.map(channels.channel(for:)) ?? channels.everything
        try await connection.listen(on: channel) { notifications in
            listening()
            for try await notification in notifications { delivery.deliver(notification.payload) }
        }
    }

}

/// The channels of a log's notifications: one that every append's notification goes to, and
/// one a category, so that a process can listen to the categories it reads alone.
package struct NotificationChannels: Sendable {
    /// The channel of every append, `<schema>_events`.
    package let everything: String

    package init(schema: String) { everything = "\(schema)_events" }

    /// `<schema>_events_<category>`; when that is longer than PostgreSQL's 63-byte names,
    /// the category's part is a hash of it (the same in every process).
    package func channel(for category: String) -> String {
        let readable = "\(everything)_\(category)"
        if readable.utf8.count <= 63 { return readable }
        // FNV-1a: stable across processes, unlike Swift's seeded `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in category.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(everything)_\(String(hash, radix: 16))"
    }
}

/// Which store sent a notification: a random mark, made once per store, that leads the
/// payload. It is not a category (it holds a `:`), so a version that does not know it reads
/// the categories after it and ignores the mark.
package struct NotificationOrigin: Sendable {
    package let mark: String

    package init() { mark = "from:" + UUID().uuidString.lowercased() }

    /// What a notification's payload says.
    package enum Heard: Equatable {
        /// The store that `ownMark` marks sent it.
        case own
        /// It names no category: anything may have been appended.
        case everything
        case categories([String])
    }

    /// What `payload` (see ``AppendNotifier``) says to the store whose mark is `ownMark`.
    package static func heard(_ payload: String, ownMark: Substring) -> Heard {
        let elements = payload.split(separator: ",")
        if elements.contains(ownMark) { return .own }
        let categories = elements.filter { StreamName.isCategory($0) }
        return categories.isEmpty ? .everything : .categories(categories.map(String.init))
    }
}

/// `NOTIFY` of an append's categories on several channels, prepared once per connection
/// like the log's statements.
struct NotifyStatement: LoopDecodedStatement {
    static let name = "commons_notify_channels"
    static let sql = "SELECT true FROM unnest($1::text[]) AS channel, LATERAL pg_notify(channel, $2)"
    typealias Row = Bool

    var channels: [String]
    var payload: String

    var parameters: [PostgresData] { [PostgresData(binding: channels), PostgresData(binding: payload)] }

    /// One row per channel notified; its cell is not read: nothing needs it, and the
    /// event-loop form labels the binary cell as text, which the decoder refuses.
    func decodeRow(_ row: PostgresRow) throws -> Bool { true }
}
