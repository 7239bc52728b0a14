import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("accounts: declared bounds")
struct AccountsBoundsTests {
    @Test("every body field declares a bound")
    func everythingBounded() async throws {
        try await AccountsHarness().test { client in
            let bounds = try await client.bounds()
            #expect(bounds.unbounded.isEmpty)
        }
    }

    @Test("a display name and a home latitude at their declared bounds are accepted; one past gets 422")
    func profileBounds() async throws {
        try await AccountsHarness().test { client in
            let bounds = try await client.bounds()
            let name = try bounds.bound("maxLength", of: "POST /v1/accounts", body: "displayName")
            let password = try bounds.bound("maxLength", of: "POST /v1/accounts", body: "password")
            let latitude = try bounds.bound("maximum", of: "PATCH /v1/me", body: "homeLocation.lat")
            let tokens = try await client.register(
                "bounds@example.org", password: String(repeating: "p", count: password),
                name: String(repeating: "n", count: name))
            let tooLong = try await client.call(
                .post, "/v1/accounts",
                json: [
                    "email": "past@example.org", "password": String(repeating: "p", count: password + 1),
                    "displayName": String(repeating: "n", count: name + 1),
                ])
            #expect(tooLong.status == .unprocessableContent && tooLong.fieldErrors == ["password", "displayName"], "\(tooLong.text)")
            let atBound = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["homeLocation": ["lat": latitude, "lon": 0]])
            #expect(atBound.status == .ok, "\(atBound.text)")
            let past = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["homeLocation": ["lat": latitude + 1, "lon": 0]])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["homeLocation.lat"], "\(past.text)")
        }
    }

    @Test("a phone at its declared length is saved; one character more gets 422")
    func phoneBound() async throws {
        try await AccountsHarness().test { client in
            let length = try await client.bounds().bound("maxLength", of: "PATCH /v1/me", body: "phone")
            let tokens = try await client.register("phone@example.org")
            let number = "+44 7700 900123"
            let atBound = number + String(repeating: " ", count: length - number.count)
            let saved = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["phone": atBound])
            #expect(saved.status == .ok, "\(saved.text)")
            let past = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["phone": atBound + " "])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["phone"], "\(past.text)")
        }
    }

    @Test("a compared password one past its declared length gets 422, for a known address or not; in bounds, a wrong one 401")
    func comparedPasswords() async throws {
        try await AccountsHarness().test { client in
            let bounds = try await client.bounds()
            let length = try bounds.bound("maxLength", of: "POST /v1/sessions", body: "password")
            let current = try bounds.bound("maxLength", of: "PUT /v1/me/password", body: "currentPassword")
            let tokens = try await client.register("known@example.org")
            for email in ["known@example.org", "unknown@example.org"] {
                let wrong = try await client.signIn(email, password: String(repeating: "p", count: length))
                #expect(wrong.status == .unauthorized, "\(email): \(wrong.text)")
                let past = try await client.signIn(email, password: String(repeating: "p", count: length + 1))
                #expect(past.status == .unprocessableContent && past.fieldErrors == ["password"], "\(email): \(past.text)")
            }
            let change = try await client.call(
                .put, "/v1/me/password", token: tokens.accessToken,
                json: ["currentPassword": String(repeating: "p", count: current + 1), "newPassword": "short"])
            #expect(change.status == .unprocessableContent && change.fieldErrors == ["currentPassword", "newPassword"], "\(change.text)")
        }
    }

    @Test("a reset for an unknown address at its declared length is accepted; one character more gets 422")
    func resetEmail() async throws {
        try await AccountsHarness().test { client in
            let length = try await client.bounds().bound("maxLength", of: "POST /v1/password-resets", body: "email")
            let domain = "@example.org"
            let long = String(repeating: "a", count: length - domain.count) + domain
            #expect(try await client.call(.post, "/v1/password-resets", json: ["email": long]).status == .accepted)
            let past = try await client.call(.post, "/v1/password-resets", json: ["email": "a" + long])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["email"], "\(past.text)")
        }
    }
}

extension AccountsHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await call(.get, "/openapi.json").body)
    }
}
