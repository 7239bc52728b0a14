import Contracts
import EventLog
import Foundation

/// A session as its stream tells it: whose it is, which refresh token is current, which
/// ones were used before, and whether it has ended.
public struct SessionState: Sendable, Equatable {
    public var sessionId: UUID?
    public var accountId: UUID?
    public var currentRefreshHash: String?
    public var usedRefreshHashes: Set<String> = []
    public var isRevoked = false
    public var version: Int64 = 0
    /// When the person signed in (the session began).
    public var startedAt: Date?
    /// When a refresh token was last issued (the sign-in or the last refresh).
    public var lastIssuedAt: Date?
    /// The token the last refresh rotated away, and when: a race gets ``refreshGrace``.
    public var previousRefreshHash: String?

    /// A session not refreshed for this long has ended: an app unused for a month signs in again.
    public static let idleLifetime: TimeInterval = 30 * 86_400
    /// A session ends this long after its sign-in, however often it is refreshed.
    public static let absoluteLifetime: TimeInterval = 90 * 86_400
    /// How long the token a refresh just replaced is answered "superseded" (409) rather than
    /// taken as stolen: two requests of one app refreshing at once.
    public static let refreshGrace: TimeInterval = 30
    /// How recent a sign-in must be to delete the account.
    public static let recentAuthentication: TimeInterval = 10 * 60

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
            currentRefreshHash = started.refreshTokenHash
            startedAt = started.startedAt
            lastIssuedAt = started.startedAt
        case let refreshed as SessionRefreshed:
            if let current = currentRefreshHash { usedRefreshHashes.insert(current) }
            previousRefreshHash = currentRefreshHash
            currentRefreshHash = refreshed.refreshTokenHash
            lastIssuedAt = refreshed.at
        case is SessionRevoked:
            isRevoked = true
        default:
            break
        }
    }

    /// Decides what presenting a refresh token does: rotate it; refuse it when the session
    /// has outlived ``idleLifetime`` or ``absoluteLifetime``; answer "superseded" when it is
    /// the token rotated away within the last ``refreshGrace`` (a race, not a theft); and
    /// for any older rotated token end the whole session, because someone else has it.
    public func refresh(presentedHash: String, newHash: String, now: Date) throws -> SessionRefreshed {
        guard let sessionId, accountId != nil else { throw AccountsError.sessionNotFound }
        guard !isRevoked, !hasExpired(now: now) else { throw AccountsError.sessionEnded }
        if presentedHash == currentRefreshHash {
            return SessionRefreshed(sessionId: sessionId, refreshTokenHash: newHash, at: now)
        }
        if presentedHash == previousRefreshHash, let lastIssuedAt, now.timeIntervalSince(lastIssuedAt) <= Self.refreshGrace {
            throw AccountsError.refreshSuperseded
        }
        if usedRefreshHashes.contains(presentedHash) {
            throw AccountsError.refreshTokenReused
        }
        throw AccountsError.sessionNotFound
    }

    /// Whether the session has outlived its idle or its absolute lifetime at `now`.
    public func hasExpired(now: Date) -> Bool {
        guard let startedAt, let lastIssuedAt else { return false }
        return now.timeIntervalSince(lastIssuedAt) > Self.idleLifetime || now.timeIntervalSince(startedAt) > Self.absoluteLifetime
    }

    /// How far apart the clock that records events (PostgreSQL's) and the services' clocks
    /// may be for ``mayStillBeLive(openedAt:now:accessTokenLifetime:)``.
    public static let clockAllowance: TimeInterval = 86_400

    /// Whether a session whose opening was recorded at `openedAt` may still hold a token that
    /// works at `now`. Nothing a session issues outlives ``absoluteLifetime`` after its
    /// sign-in, and an access token its own lifetime after that; ``clockAllowance`` covers a
    /// recording clock behind the one that signed in. A session for which this is false has
    /// ended by itself: ending it again would read its stream and append for nothing.
    public static func mayStillBeLive(openedAt: Date, now: Date, accessTokenLifetime: TimeInterval) -> Bool {
        now.timeIntervalSince(openedAt) <= absoluteLifetime + accessTokenLifetime + clockAllowance
    }

    /// Whether the person signed in to this session within ``recentAuthentication`` of `now`.
    public func isRecentSignIn(now: Date) -> Bool {
        guard let startedAt else { return false }
        return now.timeIntervalSince(startedAt) <= Self.recentAuthentication
    }

    /// The event that ends this session, if it is still live.
    public func revoke(reason: String, now: Date) -> SessionRevoked? {
        guard let sessionId, let accountId, !isRevoked else { return nil }
        return SessionRevoked(sessionId: sessionId, accountId: accountId, reason: reason, at: now)
    }
}
