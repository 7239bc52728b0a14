import Contracts
import Crypto
import EventLog
import Foundation

/// Seals a person's data with their personal-data key (AES-256-GCM, the key vault's) and
/// opens it again; once accounts destroys the key, ``open(_:as:)`` returns nil.
struct OwnerSealer: Sendable {
    let vault: any KeyVault

    func seal(_ value: some Encodable, for owner: UUID) async throws -> Sealed {
        let key = SymmetricKey(data: try await vault.key(for: owner))
        let box = try AES.GCM.seal(try JSONEncoder().encode(value), using: key)
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Sealed(keyId: owner, box: combined.base64EncodedString())
    }

    /// The value, or nil when its key is gone or the box does not open.
    func open<T: Decodable>(_ sealed: Sealed, as type: T.Type) async throws -> T? {
        guard let material = try await vault.existingKey(for: sealed.keyId), let combined = Data(base64Encoded: sealed.box),
              let box = try? AES.GCM.SealedBox(combined: combined),
              let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: material))
        else { return nil }
        return try? JSONDecoder().decode(T.self, from: plaintext)
    }
}
