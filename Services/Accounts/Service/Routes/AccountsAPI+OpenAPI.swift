import ServiceKit

extension AccountsAPI {
    /// Every route of the accounts service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(title: "Commons accounts", operations: [
        .init("POST", "/v1/accounts", "Register; answers with tokens.",
              body: .object(["email": .string(format: "email"), "password": .string(), "displayName": .string()],
                            required: ["email", "password", "displayName"]),
              responses: [201: "Registered", 409: "Email taken", 422: "Invalid fields"]),
        .init("POST", "/v1/sessions", "Sign in; answers with an access token (15 min) and a refresh token.",
              body: .object(["email": .string(format: "email"), "password": .string()], required: ["email", "password"]),
              responses: [201: "Signed in", 401: "Wrong email or password", 429: "Locked after repeated failures"]),
        .init("POST", "/v1/sessions/refresh", "Rotate the refresh token; reusing an old one ends the session.",
              body: .object(["refreshToken": .string()], required: ["refreshToken"]), responses: [200: "New tokens", 401: "Invalid or reused"]),
        .init("GET", "/v1/sessions", "My live sessions.", authenticated: true),
        .init("DELETE", "/v1/sessions/current", "Sign out.", authenticated: true, responses: [204: "Signed out"]),
        .init("DELETE", "/v1/sessions/{id}", "End one of my sessions.", authenticated: true, responses: [204: "Ended", 404: "Not mine"]),
        .init("POST", "/v1/password-resets", "Ask for a reset code by email (always 202).",
              body: .object(["email": .string(format: "email")], required: ["email"]), responses: [202: "Accepted"]),
        .init("POST", "/v1/password-resets/confirm", "Choose a new password with a reset code; ends every session.",
              body: .object(["token": .string(), "newPassword": .string()], required: ["token", "newPassword"]),
              responses: [204: "Changed", 400: "Invalid, used or expired code"]),
        .init("GET", "/v1/me", "My account, with personal data.", authenticated: true),
        .init("PATCH", "/v1/me", "Change display name, phone, avatar or home location (If-Match optional).", authenticated: true,
              body: .object(["displayName": .string(), "phone": .string(), "avatarImageId": .string(format: "uuid"),
                             "homeLocation": .object(["lat": .number, "lon": .number])]),
              responses: [200: "Changed", 412: "Stale If-Match"]),
        .init("PUT", "/v1/me/password", "Change my password; ends my other sessions.", authenticated: true,
              body: .object(["currentPassword": .string(), "newPassword": .string()], required: ["currentPassword", "newPassword"]),
              responses: [204: "Changed"]),
        .init("DELETE", "/v1/me", "Delete my account and make its personal data unreadable everywhere.", authenticated: true,
              responses: [204: "Deleted"]),
        .init("GET", "/v1/users/{id}", "A public profile: display name, avatar, member since.", responses: [200: "OK", 404: "No such account"]),
        .init("GET", "/.well-known/jwks.json", "The public keys that verify access tokens."),
    ])
}
