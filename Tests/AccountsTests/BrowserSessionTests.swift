import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Testing

/// Browser sessions: tokens in cookies scripts cannot read, and the CSRF echo (``BrowserSession``).
@Suite("accounts: browser sessions in cookies")
struct BrowserSessionTests {
    static let cookieDelivery: [HTTPField.Name: String] = [BrowserSession.deliveryHeader: "cookie"]

    /// The cookies of an answer by name: (value, attributes as written).
    static func cookies(of reply: AccountsHarness.Reply) -> [String: (value: String, attributes: String)] {
        var found: [String: (String, String)] = [:]
        for field in reply.headers where field.name == .setCookie {
            let parts = field.value.split(separator: ";", maxSplits: 1).map(String.init)
            let pair = parts[0].split(separator: "=", maxSplits: 1).map(String.init)
            found[pair[0]] = (pair.count > 1 ? pair[1] : "", parts.count > 1 ? parts[1] : "")
        }
        return found
    }

    /// A `Cookie` request header for `cookies`.
    static func cookieHeader(_ cookies: [String: (value: String, attributes: String)], _ names: [String]) -> String {
        names.compactMap { name in cookies[name].map { "\(name)=\($0.value)" } }.joined(separator: "; ")
    }

    @Test("signing in for a browser sets HttpOnly, Secure, SameSite=Strict cookies and puts no token in the body")
    func signInSetsCookies() async throws {
        try await AccountsHarness().test { client in
            _ = try await client.register("cookie@example.org")
            let reply = try await client.call(
                .post, "/v1/sessions", json: ["email": "cookie@example.org", "password": "a long enough phrase"],
                headers: Self.cookieDelivery)
            #expect(reply.status == .created)
            #expect(reply.json["accessToken"] == nil && reply.json["refreshToken"] == nil)
            #expect(reply.json["tokenType"] as? String == "Cookie")
            let cookies = Self.cookies(of: reply)
            let access = try #require(cookies[BrowserSession.accessCookie])
            #expect(access.attributes.contains("HttpOnly") && access.attributes.contains("Secure") && access.attributes.contains("SameSite=Strict"))
            #expect(access.attributes.contains("Path=/"))
            let refresh = try #require(cookies[BrowserSession.refreshCookie])
            #expect(BrowserSession.refreshCookie.hasPrefix("__Host-"))
            #expect(refresh.attributes.contains("HttpOnly") && refresh.attributes.contains("Secure") && refresh.attributes.contains("Path=/"))
            let csrf = try #require(cookies[BrowserSession.csrfCookie])
            #expect(!csrf.attributes.contains("HttpOnly"))
            #expect(csrf.value == BrowserSession.csrfToken(for: access.value, refreshToken: refresh.value))
        }
    }

    @Test("the access cookie authenticates reads; a change needs the CSRF echo (403 without it or with another's)")
    func cookieAuthAndCSRF() async throws {
        try await AccountsHarness().test { client in
            let signedUp = try await client.call(
                .post, "/v1/accounts", json: ["email": "csrf@example.org", "password": "a long enough phrase", "displayName": "Ada"],
                headers: Self.cookieDelivery)
            #expect(signedUp.status == .created)
            let cookies = Self.cookies(of: signedUp)
            let header = Self.cookieHeader(cookies, [BrowserSession.accessCookie, BrowserSession.refreshCookie, BrowserSession.csrfCookie])
            let me = try await client.call(.get, "/v1/me", headers: [.cookie: header])
            #expect(me.status == .ok)
            #expect(me.json["email"] as? String == "csrf@example.org")

            let forged = try await client.call(.patch, "/v1/me", json: ["displayName": "Mallory"], headers: [.cookie: header])
            #expect(forged.status == .forbidden)
            let wrong = try await client.call(
                .patch, "/v1/me", json: ["displayName": "Mallory"],
                headers: [.cookie: header, BrowserSession.csrfHeader: BrowserSession.csrfToken(for: "another token", refreshToken: "another")])
            #expect(wrong.status == .forbidden)
            let echoed = try await client.call(
                .patch, "/v1/me", json: ["displayName": "Ada L."],
                headers: [.cookie: header, BrowserSession.csrfHeader: try #require(cookies[BrowserSession.csrfCookie]).value])
            #expect(echoed.status == .ok)
            #expect(echoed.json["displayName"] as? String == "Ada L.")
        }
    }

    @Test(
        "a refresh reads the refresh cookie (with the CSRF echo minted for it) and rotates every cookie; a stale access cookie leaves a request anonymous"
    )
    func refreshWithCookies() async throws {
        try await AccountsHarness().test { client in
            let signedUp = try await client.call(
                .post, "/v1/accounts", json: ["email": "refresh@example.org", "password": "a long enough phrase", "displayName": "Ada"],
                headers: Self.cookieDelivery)
            let first = Self.cookies(of: signedUp)
            let all = Self.cookieHeader(first, [BrowserSession.accessCookie, BrowserSession.refreshCookie, BrowserSession.csrfCookie])
            let csrf = try #require(first[BrowserSession.csrfCookie]).value

            let unechoed = try await client.call(
                .post, "/v1/sessions/refresh", json: [String: String](),
                headers: Self.cookieDelivery.merging([.cookie: all]) { $1 })
            #expect(unechoed.status == .forbidden)
            // A refresh token planted beside the real echo (another session's, say) does not match it.
            let planted =
                Self.cookieHeader(first, [BrowserSession.accessCookie, BrowserSession.csrfCookie])
                + "; \(BrowserSession.refreshCookie)=planted-token"
            let mismatched = try await client.call(
                .post, "/v1/sessions/refresh", json: [String: String](),
                headers: Self.cookieDelivery.merging([.cookie: planted, BrowserSession.csrfHeader: csrf]) { $1 })
            #expect(mismatched.status == .forbidden)
            let refreshed = try await client.call(
                .post, "/v1/sessions/refresh", json: [String: String](),
                headers: Self.cookieDelivery.merging([.cookie: all, BrowserSession.csrfHeader: csrf]) { $1 })
            #expect(refreshed.status == .ok)
            let second = Self.cookies(of: refreshed)
            #expect(second[BrowserSession.refreshCookie]?.value != first[BrowserSession.refreshCookie]?.value)
            #expect(second[BrowserSession.accessCookie]?.value != nil)

            // A page that still sends a token that no longer verifies is anonymous: public routes
            // answer, and signing in again works.
            let stale = "\(BrowserSession.accessCookie)=not.a.token; \(BrowserSession.csrfCookie)=x"
            let profile = try await client.call(.get, "/v1/users/\(try #require(signedUp.json["accountId"] as? String))", headers: [.cookie: stale])
            #expect(profile.status == .ok)
            let me = try await client.call(.get, "/v1/me", headers: [.cookie: stale])
            #expect(me.status == .unauthorized)
            let again = try await client.call(
                .post, "/v1/sessions", json: ["email": "refresh@example.org", "password": "a long enough phrase"],
                headers: Self.cookieDelivery.merging([.cookie: stale]) { $1 })
            #expect(again.status == .created)
        }
    }

    @Test("signing out clears the cookies and ends the session")
    func signOutClears() async throws {
        try await AccountsHarness().test { client in
            let signedUp = try await client.call(
                .post, "/v1/accounts", json: ["email": "out@example.org", "password": "a long enough phrase", "displayName": "Ada"],
                headers: Self.cookieDelivery)
            let cookies = Self.cookies(of: signedUp)
            let header = Self.cookieHeader(cookies, [BrowserSession.accessCookie, BrowserSession.refreshCookie, BrowserSession.csrfCookie])
            let out = try await client.call(
                .delete, "/v1/sessions/current",
                headers: [.cookie: header, BrowserSession.csrfHeader: try #require(cookies[BrowserSession.csrfCookie]).value])
            #expect(out.status == .noContent)
            let cleared = Self.cookies(of: out)
            #expect(Set(cleared.keys) == [BrowserSession.accessCookie, BrowserSession.refreshCookie, BrowserSession.csrfCookie])
            #expect(cleared.values.allSatisfy { $0.value.isEmpty && $0.attributes.contains("Max-Age=0") })
            #expect(try await client.call(.get, "/v1/me", headers: [.cookie: header]).status == .unauthorized)
        }
    }

    @Test("a delivery that is neither body nor cookie is refused with 400 before anything happens")
    func unknownDelivery() async throws {
        try await AccountsHarness().test { client in
            let reply = try await client.call(
                .post, "/v1/accounts", json: ["email": "odd@example.org", "password": "a long enough phrase", "displayName": "Odd"],
                headers: [BrowserSession.deliveryHeader: "carrier-pigeon"])
            #expect(reply.status == .badRequest)
            #expect(
                try await client.call(
                    .post, "/v1/accounts", json: ["email": "odd@example.org", "password": "a long enough phrase", "displayName": "Odd"],
                    headers: [BrowserSession.deliveryHeader: "body"]
                ).status == .created, "the address was not taken by the refused request")
        }
    }

    @Test("an app's bearer token is unaffected: no CSRF echo needed")
    func bearerNeedsNoEcho() async throws {
        try await AccountsHarness().test { client in
            let tokens = try await client.register("bearer@example.org")
            let changed = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["displayName": "Grace"])
            #expect(changed.status == .ok)
        }
    }
}
