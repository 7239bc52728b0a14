import Crypto
import Foundation
import ServiceKit

/// The key that seals the token-signing keys at rest, given to accounts from outside:
///
/// | variable | meaning |
/// |---|---|
/// | `COMMONS_SIGNING_KEY_SECRET` | 32 random bytes in base64 (`openssl rand -base64 32`), the same for every replica |
/// | `COMMONS_SIGNING_KEY_SECRET_FILE` | a file holding that value (a Docker or Kubernetes secret) |
///
/// With the embedded SQLite log and neither set (development), a random secret is kept in
/// `<data dir>/accounts-signing-secret` (0600). With a PostgreSQL log one must be given.
enum SigningSecret {
    static func resolve(environment: EnvironmentVariables) throws -> SymmetricKey {
        if let file = environment.string("COMMONS_SIGNING_KEY_SECRET_FILE") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError(key: "COMMONS_SIGNING_KEY_SECRET_FILE", problem: "cannot read \(file)")
            }
            return try key(from: text, variable: "COMMONS_SIGNING_KEY_SECRET_FILE")
        }
        if let text = environment.string("COMMONS_SIGNING_KEY_SECRET") { return try key(from: text, variable: "COMMONS_SIGNING_KEY_SECRET") }
        guard case .sqlite = environment.eventStore else {
            throw ConfigurationError(key: "COMMONS_SIGNING_KEY_SECRET", problem:
                "required with a PostgreSQL log: 32 random bytes in base64 (openssl rand -base64 32), the same for every accounts replica")
        }
        let file = URL(fileURLWithPath: environment.dataDirectory).appendingPathComponent("accounts-signing-secret").path
        if let text = try? String(contentsOfFile: file, encoding: .utf8) { return try key(from: text, variable: file) }
        let made = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        try FileManager.default.createDirectory(atPath: environment.dataDirectory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: Data(made.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError(key: "COMMONS_DATA_DIR", problem: "cannot write \(file)")
        }
        return try key(from: made, variable: file)
    }

    private static func key(from text: String, variable: String) throws -> SymmetricKey {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            throw ConfigurationError(key: variable, problem: "must be 32 bytes in base64 (openssl rand -base64 32)")
        }
        return SymmetricKey(data: data)
    }
}
