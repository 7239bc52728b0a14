import CommonsClient
import Foundation
import Testing

@Suite("token store")
struct TokenStoreTests {
    static let me = HTTPResponseData.json(
        200,
        """
        {"id":"\(Answers.accountId.uuidString)","email":"ada@example.com","displayName":"Ada","role":"member"}
        """)
    static let unauthorized = HTTPResponseData.problem(
        401, #"{"type":"https://commons.example/problems/unauthorized","title":"Unauthorized","status":401}"#)
    static let noContent = HTTPResponseData(status: 204)

    static func client(_ transport: ScriptedTransport, _ store: RecordingTokenStore) -> CommonsClient {
        CommonsClient(baseURL: URL(string: "http://gateway.test")!, tokenStore: store, transport: transport, retry: .immediate)
    }

    @Test("the store is read once, on the first call that needs the session, and its tokens are sent")
    func loadedOnFirstUse() async throws {
        let store = RecordingTokenStore(signedIn)
        let transport = ScriptedTransport([.respond(Self.me), .respond(Self.me)])
        let commons = Self.client(transport, store)
        #expect(await store.calls.isEmpty, "making a client reads nothing")
        _ = try await commons.accounts.me()
        _ = try await commons.accounts.me()
        #expect(await store.calls == ["load"])
        #expect(transport.sent.map { $0.headers["Authorization"] } == ["Bearer access-1", "Bearer access-1"])
    }

    @Test("sign-in and every refresh save the newest tokens; sign-out clears them")
    func savedAndCleared() async throws {
        let store = RecordingTokenStore()
        let transport = ScriptedTransport([
            .respond(Answers.tokens("access-1", "refresh-1")), .respond(Self.unauthorized), .respond(Answers.tokens("access-2", "refresh-2")),
            .respond(Self.me), .respond(Self.noContent),
        ])
        let commons = Self.client(transport, store)
        try await commons.accounts.signIn(email: "ada@example.com", password: "correct horse")
        _ = try await commons.accounts.me()
        #expect(await store.tokens?.refreshToken == "refresh-2")
        try await commons.accounts.signOut()
        #expect(await store.calls == ["save access-1", "save access-2", "clear"], "a sign-in needs nothing read first")
        #expect(await store.tokens == nil)
        #expect(await commons.currentTokens() == nil)
    }

    @Test("deleting the account clears the store, as does a refresh the service refuses")
    func clearedWhenTheSessionEnds() async throws {
        let deleting = RecordingTokenStore(signedIn)
        try await Self.client(ScriptedTransport([.respond(Self.noContent)]), deleting).accounts.deleteAccount()
        #expect(await deleting.calls == ["load", "clear"])

        let refused = RecordingTokenStore(signedIn)
        let commons = Self.client(ScriptedTransport([.respond(Self.unauthorized), .respond(Self.unauthorized)]), refused)
        await #expect(throws: CommonsProblem.self) { _ = try await commons.accounts.me() }
        #expect(await refused.calls == ["load", "clear"])
        #expect(await commons.currentTokens() == nil)
    }

    @Test("a slow save is not overtaken by the clear that followed it")
    func storeCallsKeepTheirOrder() async throws {
        let store = RecordingTokenStore(holding: [.save])
        let commons = Self.client(ScriptedTransport([]), store)
        let restoring = Task { await commons.accounts.restore(signedIn) }
        try await waitUntil("the save began") { await store.calls == ["save access-1"] }
        let forgetting = Task { await commons.accounts.restore(nil) }
        // Time for the clear to be asked for while the save is held (the order holds either way).
        try await Task.sleep(for: .milliseconds(100))
        await store.open()
        await restoring.value
        await forgetting.value
        #expect(await store.calls == ["save access-1", "clear"])
        #expect(await store.tokens == nil, "the store ends as the client does")
        #expect(await commons.currentTokens() == nil)
    }

    @Test("a sign-in that ends while the store is still being read wins over what was read")
    func signInDuringLoad() async throws {
        let store = RecordingTokenStore(
            Tokens(accountId: UUID(), sessionId: UUID(), accessToken: "old", refreshToken: "old", expiresIn: 900),
            holding: [.load])
        let transport = ScriptedTransport([.respond(Answers.tokens("access-1", "refresh-1"))])
        let commons = Self.client(transport, store)
        let reading = Task { await commons.currentTokens() }
        try await waitUntil("the load began") { await store.calls == ["load"] }
        let signingIn = Task { try await commons.accounts.signIn(email: "ada@example.com", password: "correct horse") }
        try await waitUntil("the sign-in was sent") { transport.sent.count == 1 }
        try await Task.sleep(for: .milliseconds(100))
        await store.open()
        _ = await reading.value
        _ = try await signingIn.value
        #expect(await commons.currentTokens()?.accessToken == "access-1")
        #expect(await store.tokens?.accessToken == "access-1")
    }
}
