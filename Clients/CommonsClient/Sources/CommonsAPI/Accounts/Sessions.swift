import Foundation

/// `POST /v1/accounts`: a new account, signed in at once.
public struct Registration: Codable, Sendable, Equatable {
    public var email: String
    public var password: String
    public var displayName: String

    public init(email: String, password: String, displayName: String) {
        self.email = email
        self.password = password
        self.displayName = displayName
    }
}

/// `POST /v1/sessions`: signing in.
public struct SignIn: Codable, Sendable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /v1/sessions/refresh`: the refresh token, or none when a browser sends its cookie.
public struct TokenRefresh: Codable, Sendable, Equatable {
    public var refreshToken: String?

    public init(refreshToken: String?) {
        self.refreshToken = refreshToken
    }
}

/// A live session of mine (`GET /v1/sessions`).
public struct SessionInfo: Codable, Sendable, Equatable {
    public var id: UUID
    /// The device it was started from (its User-Agent).
    public var device: String
    public var createdAt: Date
    public var lastUsedAt: Date
    /// Whether this is the session the call was made with.
    public var current: Bool

    public init(id: UUID, device: String, createdAt: Date, lastUsedAt: Date, current: Bool) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}
