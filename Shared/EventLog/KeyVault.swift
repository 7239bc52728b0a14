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
    /// Looks up together the keys of `owners` that the current ``KeyScope`` does not know
    /// yet, and remembers them there, so that opening their values asks nothing more. Does
    /// nothing outside a scope.
    func rememberKeys(of owners: [UUID]) async throws
    /// Remembers in the current ``KeyScope`` the keys whose stored values a read brought
    /// along (``EventPage/storedKeys``; nil for a destroyed key). Does nothing outside a scope.
    func rememberStoredKeys(_ stored: [UUID: Data?]) throws
}

extension KeyVault {
    /// Remembers nothing: each key is looked up when it is asked for.
    public func rememberKeys(of owners: [UUID]) async throws {}
    /// Remembers nothing: each key is looked up when it is asked for.
    public func rememberStoredKeys(_ stored: [UUID: Data?]) throws {}
}

/// Where a key vault keeps its rows: one opaque value per owner (a key as the vault wraps
/// it), or a tombstone once destroyed. Knows nothing of what the values mean.
public protocol KeyStorage: Sendable {
    /// The value stored for `owner`, storing `candidate` first when there is none (the
    /// first writer wins; a concurrent caller gets the winner's value); nil when destroyed.
    func storeIfAbsent(_ candidate: Data, for owner: UUID) async throws -> Data?
    /// The value stored for `owner`; nil when there is none or it was destroyed.
    func stored(for owner: UUID) async throws -> Data?
    /// The values stored for `owners`, by owner: none for an owner without a key or whose
    /// key was destroyed.
    func stored(for owners: [UUID]) async throws -> [UUID: Data]
    /// Replaces the value, leaving a tombstone that refuses any later value. The tombstone
    /// keeps `wrappedBy`, the id of the secret that wrapped the value (nil when unknown), and
    /// the time: copies of the value in backups open only while that secret exists.
    func destroy(_ owner: UUID, wrappedBy: Data?) async throws
    /// The destroyed keys, counted by the secret that wrapped each when it was destroyed
    /// (nil: destroyed before tombstones kept it), with the earliest destruction of each.
    func destroyedKeys() async throws -> [DestroyedKeys]
    /// Up to `limit` live rows with owners after `owner` (from the first when nil), in owner order.
    func live(after owner: UUID?, limit: Int) async throws -> [(owner: UUID, value: Data)]
    /// Stores `new` for `owner` if it still holds `old`; false when it changed meanwhile
    /// (destroyed, or replaced by another writer).
    func replace(_ owner: UUID, _ old: Data, with new: Data) async throws -> Bool
}

extension KeyStorage {
    /// One look-up after another.
    public func stored(for owners: [UUID]) async throws -> [UUID: Data] {
        var values: [UUID: Data] = [:]
        for owner in owners { values[owner] = try await stored(for: owner) }
        return values
    }
}

/// A key that was destroyed cannot be made again.
public struct KeyDestroyedError: Error, CustomStringConvertible {
    public let owner: UUID
    public init(owner: UUID) { self.owner = owner }
    public var description: String { "the personal-data key of \(owner) has been destroyed" }
}

/// Keys destroyed while one secret wrapped them (``KeyStorage/destroyedKeys()``).
public struct DestroyedKeys: Sendable, Equatable {
    /// The id of the secret that wrapped them; nil for keys destroyed before it was kept.
    public var wrappedBy: Data?
    public var count: Int
    /// When the first of them was destroyed.
    public var earliest: Date

    public init(wrappedBy: Data?, count: Int, earliest: Date) {
        self.wrappedBy = wrappedBy
        self.count = count
        self.earliest = earliest
    }
}
