import Contracts
import Crypto
import EventLog
import Foundation

/// Seals values with an account's personal-data key (AES-256-GCM) and opens them again.
/// Once the key is destroyed, ``open(_:as:)`` returns nil for everything it sealed.
public struct PersonalDataSealer: Sendable {
    let vault: any KeyVault

    public init(vault: any KeyVault) {
        self.vault = vault
    }

    /// The value sealed with `owner`'s key, which is made on first use.
    public func seal(_ value: some Encodable, for owner: UUID) async throws -> Sealed {
        let key = SymmetricKey(data: try await vault.key(for: owner))
        let plaintext = try JSONEncoder().encode(value)
        let box = try AES.GCM.seal(plaintext, using: key)
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Sealed(keyId: owner, box: combined.base64EncodedString())
    }

    /// The value, or nil when its key has been destroyed or the box does not open with it:
    /// either way nobody can read it.
    public func open<T: Decodable>(_ sealed: Sealed, as type: T.Type) async throws -> T? {
        guard let material = try await vault.existingKey(for: sealed.keyId),
            let combined = Data(base64Encoded: sealed.box),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: material))
        else { return nil }
        return try? JSONDecoder().decode(T.self, from: plaintext)
    }

    /// Opens a sealed value that a read model keeps as JSON text.
    public func open<T: Decodable>(json text: String?, as type: T.Type) async throws -> T? {
        guard let text, let sealed = try? JSONDecoder().decode(Sealed.self, from: Data(text.utf8)) else { return nil }
        return try await open(sealed, as: type)
    }
}
extension PersonalDataSealer: PersonalDataSealing {}
