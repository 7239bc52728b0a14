import Codecs
import Crypto
import Foundation

/// How a first answer is kept for its retries: under a hash of its `Idempotency-Key`, and
/// sealed (AES-GCM) with a key derived from the `Idempotency-Key` itself. The answer may hold
/// an exact address, a message or fresh tokens; a copy of the records (a backup, a dump)
/// opens none of them, only a client presenting the same key again does.
struct IdempotencySeal {
    /// What the records store in place of the client's key.
    let storedKey: String
    private let key: SymmetricKey

    init(idempotencyKey: String, scope: String) {
        storedKey = SHA256.hash(data: Data("commons idempotency key\n\(idempotencyKey)".utf8)).lowercaseHex
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(idempotencyKey.utf8)), salt: Data(scope.utf8),
            info: Data("commons idempotency response".utf8), outputByteCount: 32)
    }

    func seal(_ data: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(data, using: key).combined else { throw CryptoKitError.incorrectParameterSize }
        return combined
    }

    func open(_ data: Data) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key)
    }
}
