import Foundation

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
        let tokens: Tokens = try await client.call(
            try Endpoint(.post, "/v1/sessions", json: SignIn(email: email, password: password), auth: .none))
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
        let tokens: Tokens = try await client.call(
            try Endpoint(.post, "/v1/sessions/refresh", json: TokenRefresh(refreshToken: refreshToken), auth: .none))
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
        try await client.perform(try Endpoint(.post, "/v1/password-resets", json: PasswordResetRequest(email: email), auth: .none))
    }

    /// Chooses a new password with a reset code; ends every session.
    public func confirmPasswordReset(token: String, newPassword: String) async throws {
        try await client.perform(
            try Endpoint(.post, "/v1/password-resets/confirm", json: PasswordReset(token: token, newPassword: newPassword), auth: .none))
    }

    /// Changes my password; my other sessions end.
    public func changePassword(current: String, new: String) async throws {
        try await client.perform(try Endpoint(.put, "/v1/me/password", json: PasswordChange(currentPassword: current, newPassword: new)))
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
