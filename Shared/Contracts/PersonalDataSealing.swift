import Foundation

/// Seals a value with its owner's personal-data key, and opens it again while the key lives.
/// Events say which of their fields are sealed; ServiceKit's `PersonalDataSealer` does the
/// cryptography.
public protocol PersonalDataSealing: Sendable {
    /// The value sealed with `owner`'s key, which is made on first use.
    func seal(_ value: some Encodable, for owner: UUID) async throws -> Sealed
    /// The value, or nil when its key has been destroyed (the account was deleted).
    func open<T: Decodable>(_ sealed: Sealed, as type: T.Type) async throws -> T?
}
