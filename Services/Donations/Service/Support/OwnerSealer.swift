import Contracts
import Crypto
import EventLog
import Foundation

/// Seals what a person writes with their personal-data key (AES-256-GCM) before it enters
/// the log, and opens it for them. When the account is deleted its key is destroyed, and
/// ``open(_:as:)`` answers nil for everything sealed with it.
struct OwnerSealer: Sendable {
    let vault: any KeyVault

    func seal(_ value: some Encodable, owner: UUID) async throws -> Sealed {
        let key = SymmetricKey(data: try await vault.key(for: owner))
        let sealed = try AES.GCM.seal(try JSONEncoder().encode(value), using: key)
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return Sealed(keyId: owner, box: combined.base64EncodedString())
    }

    /// The value, or nil when the owner's key is gone or the box does not open.
    func open<Value: Decodable>(_ sealed: Sealed, as type: Value.Type) async throws -> Value? {
        guard let material = try await vault.existingKey(for: sealed.keyId),
              let combined = Data(base64Encoded: sealed.box),
              let box = try? AES.GCM.SealedBox(combined: combined),
              let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: material))
        else { return nil }
        return try? JSONDecoder().decode(Value.self, from: plaintext)
    }

    /// Opens a sealed value kept in the read model as JSON text.
    func open<Value: Decodable>(json text: String?, as type: Value.Type) async throws -> Value? {
        guard let text, let sealed = try? JSONDecoder().decode(Sealed.self, from: Data(text.utf8)) else { return nil }
        return try await open(sealed, as: type)
    }
}
