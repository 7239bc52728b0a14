import Foundation
import ServiceTestSupport
import Testing

/// The bounds the OpenAPI document declares, and the service refusing values past them.
@Suite("accounts: declared bounds")
struct AccountsBoundsTests {
    @Test("every body field declares a bound, but the ones the service deliberately leaves open")
    func everythingBounded() async throws {
        try await AccountsHarness().test { client in
            // Sign-in and the current password are only compared, a reset request answers 202
            // whatever it holds, and a phone number bounds its digits but not its separators.
            let bounds = try await client.bounds()
            #expect(bounds.unbounded == [
                "POST /v1/sessions body.password", "PUT /v1/me/password body.currentPassword", "POST /v1/password-resets body.email",
                "PATCH /v1/me body.phone",
            ])
        }
    }

    @Test("a display name and a home latitude at their declared bounds are accepted; one past gets 422")
    func profileBounds() async throws {
        try await AccountsHarness().test { client in
            let bounds = try await client.bounds()
            let name = try bounds.bound("maxLength", of: "POST /v1/accounts", body: "displayName")
            let password = try bounds.bound("maxLength", of: "POST /v1/accounts", body: "password")
            let latitude = try bounds.bound("maximum", of: "PATCH /v1/me", body: "homeLocation.lat")
            let tokens = try await client.register("bounds@example.org", password: String(repeating: "p", count: password),
                                                   name: String(repeating: "n", count: name))
            let tooLong = try await client.call(.post, "/v1/accounts", json: [
                "email": "past@example.org", "password": String(repeating: "p", count: password + 1), "displayName": String(repeating: "n", count: name + 1),
            ])
            #expect(tooLong.status == .unprocessableContent && tooLong.fieldErrors == ["password", "displayName"], "\(tooLong.text)")
            let atBound = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["homeLocation": ["lat": latitude, "lon": 0]])
            #expect(atBound.status == .ok, "\(atBound.text)")
            let past = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["homeLocation": ["lat": latitude + 1, "lon": 0]])
            #expect(past.status == .unprocessableContent && past.fieldErrors == ["homeLocation.lat"], "\(past.text)")
        }
    }
}

extension AccountsHarness.Client {
    /// The bounds of the document the service serves.
    func bounds() async throws -> OpenAPIBounds {
        try OpenAPIBounds(json: try await call(.get, "/openapi.json").body)
    }
}
