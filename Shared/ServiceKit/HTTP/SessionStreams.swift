import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The server-sent-event streams a signed-in caller has open in this process: at most
/// ``perAccount`` an account (a phone, a tablet and a few browser tabs; each replica counts its
/// own) and ``total`` in all (each holds a connection and a task; past it a stream is refused
/// with 503 and `Retry-After`, and clients reconnect to another replica), and each ends once its access token expires, its session is revoked (signed out,
/// ended from another device, a reused refresh token) or its account deleted, as a request
/// with the same token would be refused; the client reconnects with a fresh token and
/// `Last-Event-ID`. The stream learns of a revocation from the service's revocation read
/// model, looked at every ``recheckInterval``.
public final class SessionStreams: Sendable {
    public let perAccount: Int
    public let total: Int
    public let recheckInterval: Duration
    private let open = Mutex<(byAccount: [UUID: Int], all: Int)>(([:], 0))

    public init(perAccount: Int = 8, total: Int = 10_000, recheckInterval: Duration = .seconds(1)) {
        self.perAccount = perAccount
        self.total = total
        self.recheckInterval = recheckInterval
    }

    /// How many streams `account` has open here now.
    public func count(of account: UUID) -> Int { open.withLock { $0.byAccount[account] ?? 0 } }

    /// Whether a stream may open.
    enum Entry: Equatable { case entered, accountFull, processFull }

    /// Takes a place for one more of `account`'s streams, unless the account has ``perAccount``
    /// or the process ``total`` open already.
    func enter(_ account: UUID) -> Entry {
        open.withLock { open in
            guard open.byAccount[account, default: 0] < perAccount else { return .accountFull }
            guard open.all < total else { return .processFull }
            open.byAccount[account, default: 0] += 1
            open.all += 1
            return .entered
        }
    }

    func leave(_ account: UUID) {
        open.withLock { open in
            open.byAccount[account, default: 1] -= 1
            if open.byAccount[account] == 0 { open.byAccount[account] = nil }
            open.all -= 1
        }
    }
}

/// Set once a stream's session has ended; the stream's sink then reports itself closed.
final class StreamEnd: Sendable {
    private let ended = Atomic<Bool>(false)
    var isSet: Bool { ended.load(ordering: .acquiring) }
    func set() { ended.store(true, ordering: .releasing) }
}

extension ServiceRuntime {
    /// A `text/event-stream` response (see `Response.serverSentEvents`) for `identity`'s own
    /// stream, held to ``SessionStreams``: 429 `too-many-streams` when the account has its
    /// limit open here already, 503 `streams-full` when the process has, and ``ServerSentEventSink/isOpen`` false once the token expires,
    /// the session is revoked or the account deleted, or the client leaves `connection`
    /// (``ClientDeparture``), so the producer ends the stream.
    public func sessionEvents(
        for identity: Identity, connection: (any Channel)? = nil,
        _ produce: @escaping @Sendable (inout ServerSentEventSink) async throws -> Void
    ) async throws -> Response {
        let streams = streams
        switch streams.enter(identity.accountId) {
        case .entered: break
        case .accountFull:
            throw Problem(
                .tooManyRequests, type: "too-many-streams",
                detail: "This account has \(streams.perAccount) live streams open here already; close one first.",
                headers: ["Retry-After": "5"])
        case .processFull:
            throw Problem(
                .serviceUnavailable, type: "streams-full", detail: "This service holds as many live streams as it can; try again shortly.",
                headers: ["Retry-After": "10"])
        }
        let readModel = readModel
        let end = StreamEnd()
        // Watched before the answer's head goes out: a client may read the head and leave
        // before the stream's body starts, and a departure before the watch goes unseen.
        var departure: ClientDeparture.Watch?
        if let connection { departure = await ClientDeparture.watch(connection) { end.set() } }
        return Response.serverSentEvents(ending: end) { [departure] sink in
            let watcher = Task {
                while !Task.isCancelled, !end.isSet {
                    try? await Task.sleep(for: streams.recheckInterval)
                    if let expiresAt = identity.expiresAt, Date() >= expiresAt { end.set() }
                    if (try? await RevocationProjection.isRevoked(identity, in: readModel.pool)) == true { end.set() }
                }
            }
            defer {
                watcher.cancel()
                departure?.stop()
                streams.leave(identity.accountId)
            }
            try await produce(&sink)
        }
    }
}
