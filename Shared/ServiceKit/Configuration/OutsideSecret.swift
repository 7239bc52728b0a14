import Codecs
import Crypto
import Foundation

/// A 256-bit secret given to a service from outside the log and its database:
///
/// | variable | meaning |
/// |---|---|
/// | `<NAME>` | 32 random bytes in base64 (`openssl rand -base64 32`) |
/// | `<NAME>_FILE` | a file holding that value (a Docker or Kubernetes secret) |
///
/// With the embedded SQLite log and neither set (development), a random secret is made
/// once and kept in `<data dir>/<developmentFile>` (0600). With a PostgreSQL log one must
/// be given: a default would be a secret everybody knows.
public struct OutsideSecret: Sendable {
    /// The variable that names it, without `_FILE`.
    public let name: String
    /// Where a development stack keeps it, inside the data directory; nil when it has no such place.
    public let developmentFile: String?
    /// Why it must be the same everywhere, for the line a refusal prints.
    public let sharedBy: String

    public init(name: String, developmentFile: String?, sharedBy: String) {
        self.name = name
        self.developmentFile = developmentFile
        self.sharedBy = sharedBy
    }

    /// The secret, made in the data directory when none is given and the log is the
    /// embedded SQLite one (`embeddedLog`; by default, when the environment names no other).
    public func resolve(environment: EnvironmentVariables, embeddedLog: Bool? = nil) throws -> SymmetricKey {
        if let given = try given(environment: environment) { return given }
        let embedded: Bool
        if let embeddedLog { embedded = embeddedLog } else if case .sqlite = environment.eventStore { embedded = true } else { embedded = false }
        guard embedded, let developmentFile else {
            throw ConfigurationError(
                key: name,
                problem:
                    "required with a PostgreSQL log: 32 random bytes in base64 (openssl rand -base64 32), the same for \(sharedBy)")
        }
        try FileManager.default.createDirectory(atPath: environment.dataDirectory, withIntermediateDirectories: true)
        return try Self.development(at: URL(fileURLWithPath: environment.dataDirectory).appendingPathComponent(developmentFile).path)
    }

    /// The random secret kept in `file` (0600), made by whichever process comes first:
    /// processes starting together all end up with the same one.
    public static func development(at file: String) throws -> SymmetricKey {
        if let text = try? String(contentsOfFile: file, encoding: .utf8) { return try key(from: text, variable: file) }
        let made = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        let draft = file + ".\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: draft, contents: Data(made.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError(key: "COMMONS_DATA_DIR", problem: "cannot write \(file)")
        }
        defer { unlink(draft) }
        // link(2) fails if the file exists: the first process's secret is everyone's.
        guard link(draft, file) == 0 || errno == EEXIST, let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ConfigurationError(key: "COMMONS_DATA_DIR", problem: "cannot write \(file)")
        }
        return try key(from: text, variable: file)
    }

    /// The secret if `<NAME>` or `<NAME>_FILE` gives one; nil when neither is set.
    public func given(environment: EnvironmentVariables) throws -> SymmetricKey? {
        if let file = environment.string(name + "_FILE") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError(key: name + "_FILE", problem: "cannot read \(file)")
            }
            return try Self.key(from: text, variable: name + "_FILE")
        }
        return try environment.string(name).map { try Self.key(from: $0, variable: name) }
    }

    private static func key(from text: String, variable: String) throws -> SymmetricKey {
        guard let data = Data(base64Encoded: text.trimmingWhitespaceAndNewlines()), data.count == 32 else {
            throw ConfigurationError(key: variable, problem: "must be 32 bytes in base64 (openssl rand -base64 32)")
        }
        return SymmetricKey(data: data)
    }
}
