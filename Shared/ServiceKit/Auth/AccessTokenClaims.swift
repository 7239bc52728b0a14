import Foundation
import JWTKit

/// The claims of a Commons access token (an EdDSA JWT signed by `accounts`).
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// The account id.
    public var sub: SubjectClaim
    /// The session the token belongs to; revoking the session revokes the token.
    public var sid: String
    public var role: String
    public var iss: IssuerClaim
    /// Who the token is for: Commons' API, so that a token signed for anything else with the
    /// same keys is refused.
    public var aud: AudienceClaim
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim

    public static let issuer = "commons-accounts"
    public static let audience = "commons-api"

    public init(accountId: UUID, sessionId: UUID, role: Identity.Role, issuedAt: Date, lifetime: TimeInterval) {
        sub = SubjectClaim(value: accountId.lowercasedText)
        sid = sessionId.lowercasedText
        self.role = role.rawValue
        iss = IssuerClaim(value: Self.issuer)
        aud = AudienceClaim(value: Self.audience)
        iat = IssuedAtClaim(value: issuedAt)
        exp = ExpirationClaim(value: issuedAt.addingTimeInterval(lifetime))
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        guard iss.value == Self.issuer else { throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "unknown issuer") }
        try aud.verifyIntendedAudience(includes: Self.audience)
    }

    /// The identity the token proves, if its fields are well formed.
    public var identity: Identity? {
        guard let account = UUID(uuidString: sub.value), let session = UUID(uuidString: sid),
            let role = Identity.Role(rawValue: role)
        else { return nil }
        return Identity(accountId: account, sessionId: session, role: role, expiresAt: exp.value)
    }
}
