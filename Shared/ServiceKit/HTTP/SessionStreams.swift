import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The server-sent-event streams a signed-in caller has open in this process: at most
/// ``perAccount`` an account (a phone, a tablet and a few browser tabs; each replica counts its
/// own), and each ends once its access token expires, its session is revoked (signed out,
/// ended from another device, a reused refresh token) or its account deleted, as a request
/// with the same token would be refused; the client reconnects with a fresh token and
/// `Last-Event-ID`. The stream learns of a revocation from the service's revocation read
/// model, looked at every ``recheckInterval``.
public final class SessionStreams: Sendable {
    public let perAccount: Int
    public let recheckInterval: Duration
    private let open = Mutex<[UUID: Int]>([:])

    public init(perAccount: Int = 8, recheckInterval: Duration = .seconds(1)) {
        self.perAccount = perAccount
        self.recheckInterval = recheckInterval
    }

    /// How many streams `account` has open here now.
    public func count(of account: UUID) -> Int { open.withLock { $0[account] ?? 0 } }

    /// Takes a place for one more of `account`'s streams; false when it has ``perAccount`` already.
    func enter(_ account: UUID) -> Bool {
        open.withLock { open in
            guard open[account, default: 0] < perAccount else { return false }
            open[account, default: 0] += 1
            return true
        }
    }

    func leave(_ account: UUID) {
        open.withLock { open in
            open[account, default: 1] -= 1
            if open[account] == 0 { open[account] = nil }
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
    /// limit open here already, and ``ServerSentEventSink/isOpen`` false once the token expires,
    /// the session is revoked or the account deleted, or the client leaves `connection`
    /// (``ClientDeparture``), so the producer ends the stream.
    public func sessionEvents(
        for identity: Identity, connection: (any Channel)? = nil,
        _ produce: @escaping @Sendable (inout ServerSentEventSink) async throws -> Void
    ) async throws -> Response {
        let streams = streams
        guard streams.enter(identity.accountId) else {
            throw Problem(
                .tooManyRequests, type: "too-many-streams",
                detail: "This account has \(streams.perAccount) live streams open here already; close one first.",
                headers: ["Retry-After": "5"])
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
