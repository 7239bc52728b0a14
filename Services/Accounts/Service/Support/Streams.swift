import Codecs
import Contracts
import Crypto
import EventLog
import Foundation

/// The accounts service's streams, and loading them through the shared catalog.
enum Streams {
    static func account(_ id: UUID) -> String { "account-\(id.lowercasedText)" }
    static func session(_ id: UUID) -> String { "session-\(id.lowercasedText)" }
    static func accountSessions(_ account: UUID) -> String { "accountsessions-\(account.lowercasedText)" }
    /// Where sign-ins to an address are counted: its HMAC under `key` (see ``SigningKeyStore/addressKey(for:)``),
    /// so that a copy of the log does not say which addresses were tried.
    static func signInThrottle(_ normalized: String, key: SymmetricKey) -> String {
        "signinthrottle-" + keyedHash(normalized, key: key)
    }
    /// What a sign-in attempt keeps of the client's network (``SignInAttempted/network``): the
    /// first 16 bits of its HMAC under the throttle's key, as four hex digits.
    static func networkTag(_ network: String, key: SymmetricKey) -> String {
        String(keyedHash(network, key: key).prefix(4))
    }
    static func passwordReset(_ id: UUID) -> String { "passwordreset-\(id.lowercasedText)" }
    /// The reset codes mailed to an account's address (``PasswordResetMailed``).
    static func resetMail(_ account: UUID) -> String { "resetmail-\(account.lowercasedText)" }
    /// The reservation stream of a normalised email (DESIGN.md §4): its HMAC under `key`
    /// (see ``SigningKeyStore/addressKey(for:)``), so that nobody holding a copy of the log
    /// can hash a candidate address and find the account it belongs to.
    static func email(_ normalized: String, key: SymmetricKey) -> String { "email-" + keyedHash(normalized, key: key) }
    /// Where reservations made before they were keyed live: a plain SHA-256 of the address.
    /// Still read, so an address reserved then stays taken; never written again.
    static func unkeyedEmail(_ normalized: String) -> String { "email-\(sha256(normalized))" }

    private static func keyedHash(_ text: String, key: SymmetricKey) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key).lowercaseHex
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).lowercaseHex
    }

    /// The decoded events of `stream`, oldest first, with the stream's version.
    static func load(_ stream: String, from store: any EventStore) async throws -> (events: [any EventContract], version: Int64) {
        let recorded = try await store.read(stream: stream)
        return (try recorded.compactMap { try CommonsEvents.catalog.decode($0) }, recorded.last?.version ?? 0)
    }
}

/// A secret handed to a client once (refresh and reset tokens): `<id>.<secret>`. Only a
/// hash of the secret is stored.
struct BearerSecret: Equatable {
    let id: UUID
    let secret: String

    static func new(id: UUID = UUID()) -> BearerSecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let secret = Base64URL.encode(bytes)
        return BearerSecret(id: id, secret: secret)
    }

    init(id: UUID, secret: String) {
        self.id = id
        self.secret = secret
    }

    init?(_ token: String) {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), !parts[1].isEmpty, parts[1].count <= 100 else { return nil }
        self.init(id: id, secret: String(parts[1]))
    }

    var token: String { "\(id.lowercasedText).\(secret)" }
    var hash: String { Streams.sha256(secret) }
}
