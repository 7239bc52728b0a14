import Foundation

// MARK: Models (accounts)

/// `POST /v1/accounts`.
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

/// The owner's view of their account, with personal data (`GET /v1/me`).
public struct Me: Codable, Sendable, Equatable {
    public var id: UUID
    public var email: String
    public var displayName: String
    public var phone: String?
    public var homeLocation: Coordinate?
    public var avatarImageId: UUID?
    /// `member` or `admin`.
    public var role: String
    public var memberSince: Date?
}

/// `PATCH /v1/me`: a field left nil is kept; `.clear` clears an optional one.
public struct ProfileChange: Codable, Sendable, Equatable {
    public var displayName: String?
    public var phone: PatchValue<String>?
    public var avatarImageId: PatchValue<UUID>?
    public var homeLocation: PatchValue<Coordinate>?

    public init(
        displayName: String? = nil, phone: PatchValue<String>? = nil, avatarImageId: PatchValue<UUID>? = nil,
        homeLocation: PatchValue<Coordinate>? = nil
    ) {
        self.displayName = displayName
        self.phone = phone
        self.avatarImageId = avatarImageId
        self.homeLocation = homeLocation
    }
}

/// What anyone sees of an account (`GET /v1/users/{id}`).
public struct PublicProfile: Codable, Sendable, Equatable {
    public var id: UUID
    public var displayName: String
    public var avatarImageId: UUID?
    public var memberSince: Date?
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
}

// MARK: Endpoints (accounts)

/// The `accounts` service: `/v1/accounts`, `/v1/sessions`, `/v1/password-resets`, `/v1/me`, `/v1/users`.
public struct AccountsEndpoints: Sendable {
    let client: CommonsClient

    /// Registers and signs in: the tokens are kept (and saved to the token store).
    @discardableResult
    public func register(_ registration: Registration) async throws -> Tokens {
        let tokens: Tokens = try await client.call(try Endpoint(.post, "/v1/accounts", json: registration, auth: .none, idempotent: true))
        await client.adopt(tokens)
        return tokens
    }

    /// Registers and signs in.
    @discardableResult
    public func register(email: String, password: String, displayName: String) async throws -> Tokens {
        try await register(Registration(email: email, password: password, displayName: displayName))
    }

    /// Signs in (401 for a wrong email or password, 429 after repeated failures).
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Tokens {
        struct Body: Codable, Sendable { var email: String; var password: String }
        let tokens: Tokens = try await client.call(try Endpoint(.post, "/v1/sessions", json: Body(email: email, password: password), auth: .none))
        await client.adopt(tokens)
        return tokens
    }

    /// Adopts tokens an app kept some other way (the token store is the usual way).
    public func restore(_ tokens: Tokens?) async {
        await client.adopt(tokens)
    }

    /// Rotates the refresh token now (the client also does this by itself on a 401).
    @discardableResult
    public func refresh() async throws -> Tokens {
        guard let refreshToken = await client.currentTokens()?.refreshToken else { throw CommonsTransportError.notSignedIn }
        let tokens: Tokens = try await client.call(try Endpoint(.post, "/v1/sessions/refresh", json: ["refreshToken": refreshToken], auth: .none))
        await client.adopt(tokens)
        return tokens
    }

    /// My live sessions.
    public func sessions() async throws -> [SessionInfo] {
        try await client.call(Endpoint(.get, "/v1/sessions"), as: Items<SessionInfo>.self).items
    }

    /// Signs out: ends this session and forgets its tokens.
    public func signOut() async throws {
        try await client.perform(Endpoint(.delete, "/v1/sessions/current"))
        await client.adopt(nil)
    }

    /// Ends one of my other sessions.
    public func endSession(_ id: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/sessions/\(segment(id))"))
    }

    /// Asks for a password-reset code by email (always accepted, account or not).
    public func requestPasswordReset(email: String) async throws {
        try await client.perform(try Endpoint(.post, "/v1/password-resets", json: ["email": email], auth: .none))
    }

    /// Chooses a new password with a reset code; ends every session.
    public func confirmPasswordReset(token: String, newPassword: String) async throws {
        try await client.perform(try Endpoint(.post, "/v1/password-resets/confirm", json: ["token": token, "newPassword": newPassword], auth: .none))
    }

    /// Changes my password; my other sessions end.
    public func changePassword(current: String, new: String) async throws {
        try await client.perform(try Endpoint(.put, "/v1/me/password", json: ["currentPassword": current, "newPassword": new]))
    }

    /// My account with its personal data, and its ETag for ``updateProfile(_:ifMatch:)``.
    public func me() async throws -> Tagged<Me> {
        try await client.tagged(Endpoint(.get, "/v1/me"))
    }

    /// Changes my profile; with `ifMatch` a change made meanwhile elsewhere gets 412.
    public func updateProfile(_ change: ProfileChange, ifMatch: ETag? = nil) async throws -> Tagged<Me> {
        try await client.tagged(try Endpoint(.patch, "/v1/me", json: change, ifMatch: ifMatch))
    }

    /// Deletes my account; its personal data becomes unreadable everywhere. Forgets the tokens.
    public func deleteAccount() async throws {
        try await client.perform(Endpoint(.delete, "/v1/me"))
        await client.adopt(nil)
    }

    /// Anyone's public profile (404 for a deleted or unknown account).
    public func profile(_ id: UUID) async throws -> PublicProfile {
        try await client.call(Endpoint(.get, "/v1/users/\(segment(id))", auth: .none))
    }
}
