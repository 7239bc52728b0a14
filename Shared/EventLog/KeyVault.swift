import Foundation

/// Keeps the per-account keys that seal personal data in events, outside the log.
///
/// Destroying an account's key makes everything sealed with it unreadable, in the log's
/// whole history and in every export, without rewriting a single event.
public protocol KeyVault: Sendable {
    /// The key of `owner`, creating a random 256-bit key on first use.
    func key(for owner: UUID) async throws -> Data
    /// The key of `owner` if it exists and has not been destroyed.
    func existingKey(for owner: UUID) async throws -> Data?
    /// Destroys the key of `owner` for good; later calls to ``key(for:)`` refuse it.
    func destroyKey(for owner: UUID) async throws
}

/// A key that was destroyed cannot be made again.
public struct KeyDestroyedError: Error, CustomStringConvertible {
    public let owner: UUID
    public init(owner: UUID) { self.owner = owner }
    public var description: String { "the personal-data key of \(owner) has been destroyed" }
}

extension KeyVault {
    /// 32 random bytes.
    public static func newKeyMaterial() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
