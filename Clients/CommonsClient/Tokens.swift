import Foundation

/// What `accounts` answers when a session starts or is refreshed.
public struct Tokens: Codable, Sendable, Equatable {
    public var accountId: UUID
    public var sessionId: UUID
    /// Short-lived (about 15 minutes); sent as `Authorization: Bearer`.
    public var accessToken: String
    /// Rotating: each refresh answers a new one and the old one must not be used again.
    public var refreshToken: String
    public var tokenType: String
    /// Seconds the access token lives.
    public var expiresIn: Int

    public init(accountId: UUID, sessionId: UUID, accessToken: String, refreshToken: String, tokenType: String = "Bearer", expiresIn: Int) {
        self.accountId = accountId
        self.sessionId = sessionId
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }
}

/// Where a client keeps its tokens between launches (e.g. the Keychain in an app). The
/// client calls `save` after every sign-in, registration and refresh, and `save(nil)` when
/// the session ends.
public protocol TokenStore: Sendable {
    func load() async -> Tokens?
    func save(_ tokens: Tokens?) async
}

/// Keeps tokens in memory only: a signed-in session lasts as long as the process.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: Tokens?

    public init(_ tokens: Tokens? = nil) {
        self.tokens = tokens
    }

    public func load() async -> Tokens? { tokens }
    public func save(_ tokens: Tokens?) async { self.tokens = tokens }
}
