import AccountsDomain
import ServiceKit

extension AccountsAPI {
    typealias Schema = OpenAPIDocument.Schema

    /// An address ``EmailAddress`` accepts: at most 254 characters.
    static let email = Schema.string(format: "email", maxLength: EmailAddress.maximumLength)
    /// A new password: ``PasswordPolicy`` wants at least 10 characters and at most 72 UTF-8
    /// bytes, so nothing over 72 characters passes (fewer when some take several bytes).
    static let newPassword = Schema.string(minLength: PasswordPolicy.minimumLength, maxLength: PasswordPolicy.maximumBytes)
    /// A password to compare with the one set: at most 72 UTF-8 bytes like a new one, so longer
    /// ones are refused (422) before any comparison.
    static let password = Schema.string(maxLength: PasswordPolicy.maximumBytes)
    /// A display name, trimmed: ``ProfileRules``.
    static let displayName = Schema.string(minLength: 1, maxLength: 60)
    /// A refresh token or reset code: a UUID, a dot and at most 100 characters (``BearerSecret``).
    static let bearerSecret = Schema.string(minLength: 38, maxLength: 137)

    /// What every POST can answer through the kit's `Idempotency-Key` handling: 409 while a
    /// first request with the key still runs (422, a key reused with another body, is implied
    /// by a JSON body).
    static let keyInUse = "Idempotency-Key still in use by a first request"

    /// A write that ends sessions answers 204 once this service refuses them, or 202 when it
    /// has not read the write within the request's deadline (``AccountsAPI/settled(_:)``).
    static let settling = "Saved, but not yet in effect here (only under heavy load): wait with Commons-Min-Position"
    static let settlingBody = Schema.object(["status": .string()], required: ["status"])

    /// Every route of the accounts service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(
        title: "Commons accounts",
        operations: [
            .init(
                "POST", "/v1/accounts", "Register; answers with tokens.",
                body: .object(
                    ["email": email, "password": newPassword, "displayName": displayName],
                    required: ["email", "password", "displayName"]),
                responses: [201: "Registered", 409: "Email taken, or Idempotency-Key still in use", 422: "Invalid fields"], returns: [201: tokens]
            ).deliveringTokens(),
            .init(
                "POST", "/v1/sessions", "Sign in; answers with an access token (15 min) and a refresh token.",
                body: .object(["email": email, "password": password], required: ["email", "password"]),
                responses: [
                    201: "Signed in", 401: "Wrong email or password", 409: keyInUse, 422: "A password longer than 72 bytes",
                    429: "Locked after repeated failures",
                ], returns: [201: tokens]
            ).deliveringTokens(),
            .init(
                "POST", "/v1/sessions/refresh", "Rotate the refresh token (a browser's: its refresh cookie); reusing an old one ends the session.",
                body: .object(["refreshToken": bearerSecret]),
                responses: [
                    200: "New tokens", 401: "Invalid or reused", 409: "Rotated a moment ago by another request, or Idempotency-Key still in use",
                    422: "No refresh token, in the body or as a cookie",
                ],
                returns: [200: tokens]
            ).deliveringTokens(),
            .init(
                "GET", "/v1/sessions", "My live sessions.", authenticated: true,
                returns: [200: .object(["items": .array(session)], required: ["items"])]),
            .init(
                "DELETE", "/v1/sessions/current", "Sign out.", authenticated: true, responses: [204: "Signed out", 202: settling],
                returns: [202: settlingBody]),
            .init(
                "DELETE", "/v1/sessions/{id}", "End one of my sessions.", authenticated: true,
                responses: [204: "Ended", 202: settling, 404: "Not mine"], returns: [202: settlingBody]),
            .init(
                "POST", "/v1/password-resets", "Ask for a reset code by email (202 for any address within bounds).",
                // Any text is taken, so that the answer says nothing about which addresses exist.
                body: .object(["email": .string(maxLength: EmailAddress.maximumLength)], required: ["email"]),
                responses: [202: "Accepted", 409: keyInUse, 422: "An address over 254 characters"],
                returns: [202: .object(["status": .string()], required: ["status"])]),
            .init(
                "POST", "/v1/password-resets/confirm", "Choose a new password with a reset code; ends every session.",
                body: .object(["token": bearerSecret, "newPassword": newPassword], required: ["token", "newPassword"]),
                responses: [204: "Changed", 202: settling, 400: "Invalid, used or expired code", 404: "The account was deleted", 409: keyInUse],
                returns: [202: settlingBody]),
            .init(
                "GET", "/v1/me", "My account, with personal data.", authenticated: true,
                responses: [200: "OK", 404: "The account was deleted meanwhile"], returns: [200: me]),
            .init(
                "PATCH", "/v1/me", "Change display name, phone, avatar or home location (If-Match optional).", authenticated: true,
                body: .object([
                    "displayName": displayName, "phone": .string(maxLength: ProfileRules.maximumPhoneLength),
                    "avatarImageId": .string(format: "uuid"), "homeLocation": .object(["lat": .latitude, "lon": .longitude]),
                ]),
                responses: [200: "Changed", 404: "The account was deleted meanwhile", 412: "Stale If-Match", 422: "Invalid fields"],
                returns: [200: me]
            ).readingIfMatch(required: false),
            .init(
                "PUT", "/v1/me/password", "Change my password; ends my other sessions.", authenticated: true,
                body: .object(["currentPassword": password, "newPassword": newPassword], required: ["currentPassword", "newPassword"]),
                responses: [204: "Changed", 202: settling, 404: "The account was deleted meanwhile", 422: "Invalid fields"],
                returns: [202: settlingBody]),
            .init(
                "DELETE", "/v1/me", "Delete my account and make its personal data unreadable everywhere.", authenticated: true,
                responses: [204: "Deleted", 202: settling, 403: "No sign-in within the last 10 minutes", 404: "The account was deleted meanwhile"],
                returns: [202: settlingBody]),
            .init(
                "GET", "/v1/users/{id}", "A public profile: display name, avatar, member since.", responses: [200: "OK", 404: "No such account"],
                returns: [200: publicProfile]),
            .init("GET", "/.well-known/jwks.json", "The public keys that verify access tokens.", returns: [200: jwks]),
        ])
}
