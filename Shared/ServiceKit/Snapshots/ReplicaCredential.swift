import Codecs
import Crypto
import Foundation
import HTTPTypes

/// What one replica shows another to be sent its read model (``ReadModelSnapshotRoute``):
/// a value derived from the key-vault secret, which every replica of every service is given
/// and nobody else is. It is not an administrator's token on purpose: a snapshot holds in
/// clear what the log seals (listing text, list items), which no person may download.
public struct ReplicaCredential: Sendable {
    /// The request header that carries it.
    public static let header = HTTPField.Name("Commons-Replica-Credential")!

    /// What this replica sends: derived from the current secret.
    public let value: String
    /// What this replica accepts: from the current secret, and during a rotation the previous one.
    private let accepted: [String]

    public init(secrets: KeyVaultSecrets) {
        value = Self.derive(from: secrets.wrapping)
        accepted = [secrets.wrapping, secrets.previous].compactMap { $0 }.map(Self.derive(from:))
    }

    /// Whether `presented` is a credential this replica accepts.
    func accepts(_ presented: String?) -> Bool {
        guard let presented else { return false }
        // Compared as MACs are, in time that does not tell how much matched.
        return accepted.contains { expected in
            expected.utf8.count == presented.utf8.count
                && zip(expected.utf8, presented.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    private static func derive(from secret: SymmetricKey) -> String {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, info: Data("commons read-model snapshot credential v1".utf8), outputByteCount: 32)
        return key.withUnsafeBytes { Base64URL.encode($0) }
    }
}
