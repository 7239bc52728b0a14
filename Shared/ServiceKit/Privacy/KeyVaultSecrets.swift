import Crypto
import Foundation

/// The secrets that wrap every personal-data key at rest, given to each service from
/// outside the database:
///
/// | variable | meaning |
/// |---|---|
/// | `COMMONS_KEY_VAULT_SECRET` (or `_FILE`) | wraps new keys and opens keys wrapped by it; the same for every service and replica |
/// | `COMMONS_KEY_VAULT_PREVIOUS_SECRET` (or `_FILE`) | during a rotation only: opens keys still wrapped by the secret before |
///
/// A key destroyed in PostgreSQL lives on in dead tuples, the WAL and backups, but only
/// wrapped: once the secret that wrapped it is rotated away (``WrappedKeyVault/rewrap(progress:)``,
/// `commons keys rewrap`) and forgotten, no copy anywhere opens.
public struct KeyVaultSecrets: Sendable {
    public static let current = OutsideSecret(
        name: "COMMONS_KEY_VAULT_SECRET", developmentFile: nil,
        sharedBy: "every service and replica (and the commons CLI) on this log")
    public static let previous = OutsideSecret(
        name: "COMMONS_KEY_VAULT_PREVIOUS_SECRET", developmentFile: nil,
        sharedBy: "every service during a rotation")

    /// Wraps new keys; opens keys it wrapped.
    public let wrapping: SymmetricKey
    /// Opens keys wrapped before the last rotation, until they are rewrapped.
    public let previous: SymmetricKey?

    public init(wrapping: SymmetricKey, previous: SymmetricKey? = nil) {
        self.wrapping = wrapping
        self.previous = previous
    }

    /// A random secret that nothing else knows, for a benchmark's scratch log.
    public static func throwaway() -> KeyVaultSecrets { KeyVaultSecrets(wrapping: SymmetricKey(size: .bits256)) }

    /// The secrets `environment` gives (see the table above). With none given, an embedded
    /// log's vault uses a random secret kept in `developmentFile` beside it (whatever data
    /// directory each service has, all of them on that log find the same one); a PostgreSQL
    /// log's vault refuses.
    public static func resolve(environment: EnvironmentVariables, developmentFile: String?) throws -> KeyVaultSecrets {
        let wrapping: SymmetricKey
        if let given = try current.given(environment: environment) {
            wrapping = given
        } else if let developmentFile {
            wrapping = try OutsideSecret.development(at: developmentFile)
        } else {
            throw ConfigurationError(
                key: current.name,
                problem:
                    "required with a PostgreSQL log: 32 random bytes in base64 (openssl rand -base64 32), the same for \(current.sharedBy)")
        }
        return KeyVaultSecrets(wrapping: wrapping, previous: try previous.given(environment: environment))
    }
}
