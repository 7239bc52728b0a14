import Foundation
import GRDB
import ReadModel
import Synchronization

/// The sessions a service found live (neither revoked nor of a deleted account), remembered
/// until the next revocation or account deletion is committed to its read model, or the read
/// model's file is replaced. Every authenticated request asks; without this, each one took a
/// read transaction on a reader's thread and back for a row that almost never exists.
///
/// ``RevocationProjection`` forgets everything when it commits a revocation, after the
/// commit and before the projection's position moves: so a request that waited for that
/// position (`Commons-Min-Position`) is checked against the read model again. A session is
/// remembered only if nothing was revoked while it was read. At most `capacity` sessions are
/// remembered; past that, the list starts over.
public final class LiveSessions: Sendable {
    private struct Session: Hashable {
        let account: UUID
        let session: UUID
    }

    private struct State {
        /// Moves on at every revocation and every new file: a read begun before it proves nothing.
        var generation: UInt64 = 0
        /// The file the sessions were found live in. Weak, so that a file swapped out is not
        /// held open for this, and a pool made later at the same address is never taken for it.
        weak var pool: DatabasePool?
        var live: Set<Session> = []

        mutating func forget() {
            generation &+= 1
            live.removeAll()
        }
    }

    private let state = Mutex(State())
    private let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Whether tokens of `identity` must be refused, from memory when its session was found
    /// live since the last revocation, else from `readModel`.
    public func isRevoked(_ identity: Identity, in readModel: ReadModelDatabase) async throws -> Bool {
        let pool = readModel.pool
        let session = Session(account: identity.accountId, session: identity.sessionId)
        let generation: UInt64? = state.withLock { state in
            if state.pool !== pool {
                state.pool = pool
                state.forget()
            }
            return state.live.contains(session) ? nil : state.generation
        }
        guard let generation else { return false }
        let revoked = try await RevocationProjection.isRevoked(identity, in: pool)
        if !revoked {
            state.withLock { state in
                guard state.generation == generation, state.pool === pool else { return }
                if state.live.count >= capacity { state.live.removeAll() }
                state.live.insert(session)
            }
        }
        return revoked
    }

    /// Forgets every session: a revocation or an account deletion was committed.
    func revocationCommitted() {
        state.withLock { $0.forget() }
    }
}
