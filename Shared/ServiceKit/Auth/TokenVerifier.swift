import Backoff
import Foundation
import JWTKit
import Logging
import Synchronization

/// Where a service gets the public keys that access tokens are signed with.
public protocol PublicKeySource: Sendable {
    /// The current JWKS document (`/.well-known/jwks.json` of `accounts`).
    func fetchJWKS() async throws -> String
}

/// Verifies access tokens against the published keys, caching them and fetching again
/// when a token names a `kid` it does not know (at most once per `refetchInterval`, so
/// tokens with made-up key ids cannot make it hammer `accounts`).
///
/// A token it has verified is remembered until it expires (access tokens live 15 minutes),
/// so an app's next requests skip the signature check, a tenth of a request's work (issue
/// 17). Revocation is not cached: `AuthMiddleware` asks the read model every time. Fetching
/// the keys again forgets every remembered token, so a key taken out of the JWKS stops
/// working then.
public final class TokenVerifier: Sendable {
    private let source: any PublicKeySource
    private let keys = Mutex<JWTKeyCollection?>(nil)
    private let lastFetch = Mutex<ContinuousClock.Instant?>(nil)
    /// Tokens verified with the current keys, and whom they prove.
    private let verified = Mutex<[String: Identity]>([:])
    /// The most tokens remembered; past it, all are forgotten and the count starts again.
    static let rememberedTokens = 10_000
    private let refetchInterval: Duration
    /// The time tokens expire by: the system's, or a test's own.
    private let clock: WallClock
    private let logger: Logger

    public init(source: any PublicKeySource, refetchInterval: Duration = .seconds(1), clock: WallClock = .system, logger: Logger) {
        self.source = source
        self.refetchInterval = refetchInterval
        self.clock = clock
        self.logger = logger
    }

    /// Fetches the keys, retrying with back-off for up to `patience` (services start
    /// before `accounts` is up). Throws the last error if the keys never came.
    public func loadKeys(patience: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + patience
        var retries = Backoff(initial: .milliseconds(200), maximum: .seconds(3)).attempts()
        while true {
            do {
                try await refresh()
                return
            } catch {
                let delay = retries.next()
                if ContinuousClock.now + delay > deadline { throw error }
                logger.warning("public keys not available yet; retrying", metadata: ["error": "\(error)"])
                try await Task.sleep(for: delay)
            }
        }
    }

    /// How far in the future a token's issue time may be, by this verifier's clock.
    static let clockSkew: TimeInterval = 60

    /// The identity a token proves; throws when it is invalid, expired, issued in the future,
    /// meant for another audience or signed by an unknown key.
    public func verify(_ token: String) async throws -> Identity {
        let now = clock.now()
        if let known = verified.withLock({ $0[token] }), let expiresAt = known.expiresAt, expiresAt > now { return known }
        let identity = try await verifyAgainstKeys(token)
        // JWTKit checks the expiry by the system's clock; this, by the verifier's.
        if let expiresAt = identity.expiresAt, expiresAt <= now {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "expired")
        }
        if identity.expiresAt != nil {
            verified.withLock { remembered in
                if remembered.count >= Self.rememberedTokens { remembered.removeAll(keepingCapacity: true) }
                remembered[token] = identity
            }
        }
        return identity
    }

    private func verifyAgainstKeys(_ token: String) async throws -> Identity {
        if keys.withLock({ $0 }) == nil { try await refresh() }
        do {
            return try await verifyWithCachedKeys(token)
        } catch let error as JWTError where error.errorType != .claimVerificationFailure {
            // Most likely signed with a key published after our last fetch (a rotation).
            guard mayRefetch() else { throw error }
            try await refresh()
            return try await verifyWithCachedKeys(token)
        }
    }

    private func verifyWithCachedKeys(_ token: String) async throws -> Identity {
        guard let collection = keys.withLock({ $0 }) else { throw JWTError.noKeyProvided }
        let claims = try await collection.verify(token, as: AccessTokenClaims.self)
        // Clocks of replicas differ by a little; a token from further in the future was not issued by accounts.
        guard claims.iat.value <= clock.now().addingTimeInterval(Self.clockSkew) else {
            throw JWTError.claimVerificationFailure(failedClaim: claims.iat, reason: "issued in the future")
        }
        guard let identity = claims.identity else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "malformed subject") }
        return identity
    }

    private func mayRefetch() -> Bool {
        lastFetch.withLock { last in
            guard let last, ContinuousClock.now - last < refetchInterval else { return true }
            return false
        }
    }

    private func refresh() async throws {
        lastFetch.withLock { $0 = .now }
        let json = try await source.fetchJWKS()
        let collection = JWTKeyCollection()
        try await collection.add(jwksJSON: json)
        keys.withLock { $0 = collection }
        verified.withLock { $0.removeAll() }
    }
}
