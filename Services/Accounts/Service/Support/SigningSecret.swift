import Crypto
import Foundation
import ServiceKit

/// The key that seals the token-signing keys at rest (and names address streams, see
/// ``SigningKeyStore/addressKey(for:)``), given to accounts from outside as an
/// ``OutsideSecret``: `COMMONS_SIGNING_KEY_SECRET` or `COMMONS_SIGNING_KEY_SECRET_FILE`, the
/// same for every replica; `<data dir>/accounts-signing-secret` in development.
enum SigningSecret {
    static let secret = OutsideSecret(
        name: "COMMONS_SIGNING_KEY_SECRET", developmentFile: "accounts-signing-secret",
        sharedBy: "every accounts replica")

    static func resolve(environment: EnvironmentVariables) throws -> SymmetricKey {
        try secret.resolve(environment: environment)
    }
}
