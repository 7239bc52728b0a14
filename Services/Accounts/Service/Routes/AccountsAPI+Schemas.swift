import ServiceKit

/// The bodies the accounts routes answer with, as the OpenAPI document describes them:
/// CommonsAPI's types, the SDK's too; `AccountSchemaTests` holds each schema to its type.
extension AccountsAPI {
    /// ``Tokens``: what registering, signing in and refreshing answer; for a
    /// browser that asked for cookies (``CookieSession``), no tokens and `tokenType` `Cookie`.
    static let tokens = Schema.object(
        [
            "accountId": .string(format: "uuid"), "sessionId": .string(format: "uuid"),
            "accessToken": .string(), "refreshToken": .string(), "tokenType": .oneOf(["Bearer", "Cookie"]), "expiresIn": .integer,
        ], required: ["accountId", "sessionId", "tokenType", "expiresIn"]
    ).named("Tokens")

    /// ``SessionInfo``: one of my live sessions.
    static let session = Schema.object(
        [
            "id": .string(format: "uuid"), "device": .string(), "createdAt": .string(format: "date-time"),
            "lastUsedAt": .string(format: "date-time"), "current": .boolean,
        ], required: ["id", "device", "createdAt", "lastUsedAt", "current"]
    ).named("Session")

    /// ``Me``: the owner's account; the optional fields are absent when unset.
    static let me = Schema.object(
        [
            "id": .string(format: "uuid"), "email": .string(format: "email"), "displayName": .string(),
            "phone": .string(), "homeLocation": .object(["lat": .latitude, "lon": .longitude], required: ["lat", "lon"]),
            "avatarImageId": .string(format: "uuid"), "role": .oneOf(["member", "admin"]), "memberSince": .string(format: "date-time"),
        ], required: ["id", "email", "displayName", "role"]
    ).named("Me")

    /// ``PublicProfile``: nothing private.
    static let publicProfile = Schema.object(
        [
            "id": .string(format: "uuid"), "displayName": .string(), "avatarImageId": .string(format: "uuid"),
            "memberSince": .string(format: "date-time"),
        ], required: ["id", "displayName"]
    ).named("PublicProfile")

    /// The JSON Web Key Set of ``SigningKeyRing/jwks()``: Ed25519 public keys.
    static let jwks = Schema.object(
        [
            "keys": .array(
                .object(
                    [
                        "kty": .oneOf(["OKP"]), "crv": .oneOf(["Ed25519"]), "use": .oneOf(["sig"]), "alg": .oneOf(["EdDSA"]),
                        "kid": .string(), "x": .string(),
                    ], required: ["kty", "crv", "use", "alg", "kid", "x"]))
        ], required: ["keys"])
}
