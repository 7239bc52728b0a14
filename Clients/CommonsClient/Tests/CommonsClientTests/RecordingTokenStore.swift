import CommonsClient

/// A token store that writes down every call, and can hold calls of some kinds until
/// ``open()`` (a slow Keychain).
actor RecordingTokenStore: TokenStore {
    enum Kind: Sendable { case load, save, clear }

    private(set) var tokens: Tokens?
    /// `load`, `save <access token>` or `clear`, in the order they were called.
    private(set) var calls: [String] = []
    private var held: Set<Kind>
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ tokens: Tokens? = nil, holding held: Set<Kind> = []) {
        self.tokens = tokens
        self.held = held
    }

    func load() async -> Tokens? {
        calls.append("load")
        await pass(.load)
        return tokens
    }

    func save(_ tokens: Tokens) async {
        calls.append("save \(tokens.accessToken)")
        await pass(.save)
        self.tokens = tokens
    }

    func clear() async {
        calls.append("clear")
        await pass(.clear)
        tokens = nil
    }

    /// Lets every held call and every later one through.
    func open() {
        held = []
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    private func pass(_ kind: Kind) async {
        guard held.contains(kind) else { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}
