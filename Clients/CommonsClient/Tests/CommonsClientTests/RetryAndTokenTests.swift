import Foundation
import Testing

@testable import CommonsClient

@Suite("idempotency keys, retries and tokens")
struct RetryAndTokenTests {
    @Test("a money call keeps its Idempotency-Key across retries after a lost connection and a 503")
    func keyReused() async throws {
        let transport = ScriptedTransport([.fail, .respond(Answers.notReady), .respond(Answers.topUp), .respond(Answers.topUp)])
        let commons = client(transport, tokens: signedIn)
        let first = try await commons.donations.topUp(amountMinor: 2_500, currency: "USD", cardNumber: "4242424242424242")
        #expect(first.balanceMinor == 2_500)
        #expect(transport.sent.count == 3)
        let keys = transport.sent.map { $0.headers["Idempotency-Key"] }
        #expect(keys[0] != nil)
        #expect(keys.allSatisfy { $0 == keys[0] }, "every retry of one call sends its key again")

        _ = try await commons.donations.topUp(amountMinor: 2_500, currency: "USD", cardNumber: "4242424242424242")
        #expect(transport.sent.count == 4)
        #expect(transport.sent[3].headers["Idempotency-Key"] != keys[0], "a new call is a new key, even with the same body")
    }

    @Test("a 409 'still being processed' is retried with the same key (after its Retry-After); any other 409 reaches the caller")
    func inProgressRetried() async throws {
        let running = HTTPResponseData.problem(
            409,
            #"{"type":"https:\/\/commons.example\/problems\/idempotency-in-progress","title":"Conflict","status":409,"detail":"A request with this Idempotency-Key is still being processed."}"#,
            headers: ["Retry-After": "1"])
        let transport = ScriptedTransport([.respond(running), .respond(running), .respond(Answers.topUp)])
        let first = try await client(transport, tokens: signedIn).donations.topUp(amountMinor: 2_500, currency: "USD", cardNumber: "4242424242424242")
        #expect(first.balanceMinor == 2_500)
        #expect(transport.sent.count == 3)
        #expect(Set(transport.sent.map { $0.headers["Idempotency-Key"] }).count == 1)

        let other = HTTPResponseData.problem(
            409, #"{"type":"https://commons.example/problems/conflict","title":"Conflict","status":409,"detail":"No."}"#)
        let refused = ScriptedTransport([.respond(other), .respond(Answers.topUp)])
        let error = await #expect(throws: CommonsProblem.self) {
            _ = try await client(refused, tokens: signedIn).donations.topUp(amountMinor: 2_500, currency: "USD", cardNumber: "4242424242424242")
        }
        #expect(error?.status == 409)
        #expect(refused.sent.count == 1)
    }

    @Test("a write without a key is not sent twice after a lost connection")
    func unsafeNotRetried() async throws {
        let transport = ScriptedTransport([.fail, .respond(.json(200, "{}"))])
        await #expect(throws: CommonsTransportError.self) {
            try await client(transport, tokens: signedIn).lists.rename(UUID(), to: "Groceries")
        }
        #expect(transport.sent.count == 1)
    }

    @Test("a 401 refreshes once with the rotating token, saves the new tokens and sends the call again")
    func refreshOnce() async throws {
        let me = HTTPResponseData.json(
            200,
            """
            {"id":"\(Answers.accountId.uuidString)","email":"ada@example.com","displayName":"Ada","role":"member",\
            "memberSince":"2026-11-22T10:00:00Z"}
            """, headers: ["ETag": "\"3\""])
        let unauthorized = HTTPResponseData.problem(
            401, #"{"type":"https://commons.example/problems/unauthorized","title":"Unauthorized","status":401,"detail":"expired"}"#)
        let transport = ScriptedTransport([.respond(unauthorized), .respond(Answers.tokens("access-2", "refresh-2")), .respond(me)])
        let store = InMemoryTokenStore(signedIn)
        let commons = CommonsClient(baseURL: URL(string: "http://gateway.test")!, tokenStore: store, transport: transport, retry: .immediate)
        let answer = try await commons.accounts.me()
        #expect(answer.value.displayName == "Ada")
        #expect(answer.etag?.version == 3)
        #expect(transport.sent.map(\.url.path) == ["/v1/me", "/v1/sessions/refresh", "/v1/me"])
        #expect(transport.sent[0].headers["Authorization"] == "Bearer access-1")
        #expect(String(decoding: transport.sent[1].body ?? Data(), as: UTF8.self).contains("refresh-1"))
        #expect(transport.sent[2].headers["Authorization"] == "Bearer access-2")
        #expect(await store.load()?.refreshToken == "refresh-2")
    }

    @Test("a refused refresh signs out and the 401 reaches the caller")
    func refreshRefused() async throws {
        let unauthorized = HTTPResponseData.problem(
            401, #"{"type":"https://commons.example/problems/unauthorized","title":"Unauthorized","status":401,"detail":"x"}"#)
        let transport = ScriptedTransport([.respond(unauthorized), .respond(unauthorized)])
        let store = InMemoryTokenStore(signedIn)
        let commons = CommonsClient(baseURL: URL(string: "http://gateway.test")!, tokenStore: store, transport: transport, retry: .immediate)
        let error = await #expect(throws: CommonsProblem.self) { _ = try await commons.accounts.me() }
        #expect(error?.status == 401)
        #expect(transport.sent.count == 2)
        #expect(await store.load() == nil)
    }

    @Test("If-Match carries the ETag read, and a PATCH sends null only for what it clears")
    func ifMatch() async throws {
        let me = HTTPResponseData.json(
            200,
            """
            {"id":"\(Answers.accountId.uuidString)","email":"ada@example.com","displayName":"Ada L","role":"member"}
            """, headers: ["ETag": "\"4\""])
        let transport = ScriptedTransport([.respond(me)])
        let answer = try await client(transport, tokens: signedIn).accounts.updateProfile(
            ProfileChange(displayName: "Ada L", phone: .clear), ifMatch: ETag(version: 3))
        #expect(answer.etag == ETag("\"4\""))
        #expect(transport.sent[0].headers["If-Match"] == "\"3\"")
        let body = try JSONSerialization.jsonObject(with: transport.sent[0].body ?? Data()) as? [String: Any]
        #expect(body?["displayName"] as? String == "Ada L")
        #expect(body?["phone"] is NSNull)
        #expect(body?.keys.contains("homeLocation") == false)
    }

    @Test("backoff doubles, honours Retry-After and stops at the maximum")
    func backoff() {
        let policy = RetryPolicy(attempts: 5, initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect(policy.delay(after: 1, retryAfter: nil) == .milliseconds(100))
        #expect(policy.delay(after: 3, retryAfter: nil) == .milliseconds(400))
        #expect(policy.delay(after: 6, retryAfter: nil) == .seconds(1))
        #expect(policy.delay(after: 1, retryAfter: 5) == .seconds(1))
    }

    @Test("a raw path may carry its own query; '+' in a value stays a plus; a bad path throws instead of trapping")
    func paths() async throws {
        let transport = ScriptedTransport([.respond(.json(200, "{}")), .respond(.json(200, #"{"items":[],"nextCursor":null}"#))])
        let commons = client(transport)
        _ = try await commons.get("/v1/listings?q=sofa&limit=5")
        #expect(transport.sent[0].url.absoluteString == "http://gateway.test/v1/listings?q=sofa&limit=5")
        _ = try await commons.listings.feed(ListingFeedQuery(q: "c++ book"))
        #expect(transport.sent[1].url.query?.contains("q=c%2B%2B%20book") == true)
        await #expect(throws: CommonsTransportError.self) { _ = try await commons.get("/v1/users/a b<>") }
    }
}
