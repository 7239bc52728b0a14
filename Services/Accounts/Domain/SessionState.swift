import Contracts
import EventLog
import Foundation

/// A session as its stream tells it: whose it is, which refresh token is current, which
/// ones were used before, and whether it has ended.
public struct SessionState: Sendable, Equatable {
    public var sessionId: UUID?
    public var accountId: UUID?
    public var device = ""
    public var currentRefreshHash: String?
    public var usedRefreshHashes: Set<String> = []
    public var isRevoked = false
    public var version: Int64 = 0

    public init() {}

    public static func replay(_ events: [any EventContract]) -> SessionState {
        events.reduce(into: SessionState()) { $0.evolve($1) }
    }

    public mutating func evolve(_ event: any EventContract) {
        version += 1
        switch event {
        case let started as SessionStarted:
            sessionId = started.sessionId
            accountId = started.accountId
            device = started.device
            currentRefreshHash = started.refreshTokenHash
        case let refreshed as SessionRefreshed:
            if let current = currentRefreshHash { usedRefreshHashes.insert(current) }
            currentRefreshHash = refreshed.refreshTokenHash
        case is SessionRevoked:
            isRevoked = true
        default:
            break
        }
    }

    /// Decides what presenting a refresh token does: rotate it, or — when it is one that
    /// was already rotated away — end the whole session, because someone else has it.
    public func refresh(presentedHash: String, newHash: String, now: Date) throws -> SessionRefreshed {
        guard let sessionId, accountId != nil else { throw AccountsError.sessionNotFound }
        guard !isRevoked else { throw AccountsError.sessionEnded }
        if presentedHash == currentRefreshHash {
            return SessionRefreshed(sessionId: sessionId, refreshTokenHash: newHash, at: now)
        }
        if usedRefreshHashes.contains(presentedHash) {
            throw AccountsError.refreshTokenReused
        }
        throw AccountsError.sessionNotFound
    }

    /// The event that ends this session, if it is still live.
    public func revoke(reason: String, now: Date) -> SessionRevoked? {
        guard let sessionId, let accountId, !isRevoked else { return nil }
        return SessionRevoked(sessionId: sessionId, accountId: accountId, reason: reason, at: now)
    }
}
