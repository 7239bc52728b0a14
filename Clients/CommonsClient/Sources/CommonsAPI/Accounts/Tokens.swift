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
