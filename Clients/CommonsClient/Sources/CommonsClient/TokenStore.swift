/// Where a client keeps the session's tokens between launches: in an app, the Keychain.
///
/// The client reads the store once, on its first call that needs a session (or
/// ``CommonsClient/currentTokens()``); saves the tokens after every sign-in, registration
/// and refresh (the refresh token rotates, so the saved one must always be the newest);
/// and clears the store when the session ends: sign-out, account deletion, a refused
/// refresh. A client makes one call to its store at a time, in the order the session
/// changed, and a save or clear runs to its end even when the call that caused it is
/// cancelled.
///
/// The methods do not throw: the client cannot do better than keep the session in memory
/// when a save fails (a rotated refresh token cannot be taken back), so a store handles its
/// own failures, e.g. by logging them, and answers nil from `load` when it cannot read.
public protocol TokenStore: Sendable {
    /// The tokens saved last, or nil when there are none.
    func load() async -> Tokens?
    /// Keeps `tokens` in place of any saved before.
    func save(_ tokens: Tokens) async
    /// Forgets the saved tokens.
    func clear() async
}

/// Keeps tokens in memory only: a signed-in session lasts as long as the process. The
/// default store of ``CommonsClient``.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: Tokens?

    /// - Parameter tokens: a session to start with (nil: signed out).
    public init(_ tokens: Tokens? = nil) {
        self.tokens = tokens
    }

    public func load() async -> Tokens? { tokens }
    public func save(_ tokens: Tokens) async { self.tokens = tokens }
    public func clear() async { tokens = nil }
}
