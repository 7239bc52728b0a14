import Codecs
import Crypto
import Foundation
import JWTKit

/// The Ed25519 keys that sign access tokens. The newest key signs; every key in the ring
/// is published in the JWKS until it is retired, so tokens signed before a rotation stay
/// valid until they expire.
public struct SigningKeyRing: Codable, Sendable, Equatable {
    public struct Key: Codable, Sendable, Equatable {
        public var kid: String
        /// The raw 32-byte private key, base64.
        public var privateKey: String
        public var createdAt: Date
    }

    public private(set) var keys: [Key]

    public init(keys: [Key] = []) {
        self.keys = keys
    }

    /// A ring with one new key.
    public static func generate(now: Date = Date()) -> SigningKeyRing {
        var ring = SigningKeyRing()
        ring.rotate(now: now)
        return ring
    }

    /// Adds a new signing key; older keys keep verifying until ``retire(olderThan:)``.
    public mutating func rotate(now: Date = Date()) {
        let key = Curve25519.Signing.PrivateKey()
        keys.append(Key(kid: "k" + UUID().uuidString.prefix(8).lowercased(), privateKey: key.rawRepresentation.base64EncodedString(), createdAt: now))
    }

    /// Drops all but the newest key among those created before `date`.
    public mutating func retire(olderThan date: Date) {
        guard let newest = keys.last else { return }
        keys.removeAll { $0.createdAt < date && $0 != newest }
    }

    /// The public keys as a JWKS document.
    public func jwks() throws -> String {
        let entries: [[String: String]] = try keys.map { key in
            let privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(base64Encoded: key.privateKey) ?? Data())
            return [
                "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": key.kid,
                "x": Base64URL.encode(privateKey.publicKey.rawRepresentation),
            ]
        }
        let data = try JSONSerialization.data(withJSONObject: ["keys": entries], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A key collection that signs with the newest key.
    public func signer() async throws -> (collection: JWTKeyCollection, kid: String) {
        let collection = JWTKeyCollection()
        guard let newest = keys.last else { throw JWTError.noKeyProvided }
        for key in keys {
            let raw = try Curve25519.Signing.PrivateKey(rawRepresentation: Data(base64Encoded: key.privateKey) ?? Data())
            await collection.add(eddsa: EdDSA.PrivateKey(backing: raw), kid: JWKIdentifier(string: key.kid))
        }
        return (collection, newest.kid)
    }
}

/// Serves the ring's public keys to a ``TokenVerifier`` in the same process.
public struct LocalPublicKeySource: PublicKeySource {
    public let ring: @Sendable () -> SigningKeyRing
    public init(ring: @escaping @Sendable () -> SigningKeyRing) { self.ring = ring }
    public func fetchJWKS() async throws -> String { try ring().jwks() }
}
