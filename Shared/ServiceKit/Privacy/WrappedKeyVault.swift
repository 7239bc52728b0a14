import Crypto
import EventLog
import Foundation

/// The key vault every service uses: random 256-bit keys, stored in a ``KeyStorage`` only
/// wrapped (AES-256-GCM, bound to their owner) by a secret from outside the database.
///
/// A stored value is `0x01 ‖ secret id (8 bytes) ‖ nonce ‖ wrapped key ‖ tag`; the secret id
/// says which secret wrapped it, so a rotation can run while services still read old rows.
/// A value of exactly 32 bytes is a key stored before keys were wrapped: it is read as it
/// is until ``rewrap(progress:)`` wraps it.
public struct WrappedKeyVault: KeyVault {
    let storage: any KeyStorage
    let secrets: KeyVaultSecrets
    /// The secrets' ids, worked out once (an HMAC each).
    private let currentIdentifier: Data
    private let previousIdentifier: Data?

    public init(storage: any KeyStorage, secrets: KeyVaultSecrets) {
        self.storage = storage
        self.secrets = secrets
        currentIdentifier = Self.identifier(of: secrets.wrapping)
        previousIdentifier = secrets.previous.map(Self.identifier(of:))
    }

    /// Within a ``KeyScope``, a key already looked up in it is not looked up again.
    public func key(for owner: UUID) async throws -> Data {
        if let remembered = KeyScope.current?.remembered(owner), let key = remembered { return key }
        let material = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        guard let stored = try await storage.storeIfAbsent(try wrap(material, for: owner), for: owner) else { throw KeyDestroyedError(owner: owner) }
        let key = try unwrap(stored, for: owner)
        KeyScope.current?.remember(key, for: owner)
        return key
    }

    /// Within a ``KeyScope``, a key (or its absence) already looked up in it is not looked up again.
    public func existingKey(for owner: UUID) async throws -> Data? {
        if let remembered = KeyScope.current?.remembered(owner) { return remembered }
        let key = try await storage.stored(for: owner).map { try unwrap($0, for: owner) }
        KeyScope.current?.remember(key, for: owner)
        return key
    }

    /// One look-up for all the owners the scope does not know yet (a single one is asked
    /// as ``existingKey(for:)`` asks); an owner without a key is remembered as having none.
    public func rememberKeys(of owners: [UUID]) async throws {
        guard let scope = KeyScope.current else { return }
        let unknown = Array(Set(owners.filter { scope.remembered($0) == nil }))
        guard unknown.count > 1 else {
            if let owner = unknown.first { _ = try await existingKey(for: owner) }
            return
        }
        let stored = try await storage.stored(for: unknown)
        for owner in unknown { scope.remember(try stored[owner].map { try unwrap($0, for: owner) }, for: owner) }
    }

    public func rememberStoredKeys(_ stored: [UUID: Data?]) throws {
        guard let scope = KeyScope.current else { return }
        for (owner, value) in stored where scope.remembered(owner) == nil {
            scope.remember(try value.map { try unwrap($0, for: owner) }, for: owner)
        }
    }

    public func destroyKey(for owner: UUID) async throws {
        KeyScope.current?.forget(owner)
        // No wrapping secret (no key, or one stored before keys were wrapped) is recorded as
        // an empty id: nothing a secret opens.
        let wrappedBy = try await storage.stored(for: owner).flatMap(Self.secretIdentifier(of:)) ?? Data()
        try await storage.destroy(owner, wrappedBy: wrappedBy)
        KeyScope.current?.remember(nil, for: owner)
    }

    /// Checks that the stored keys open with the secrets given (a service refuses to start
    /// otherwise): a wrong secret would make every personal field unreadable, not fail.
    public func checkSecrets() async throws {
        guard let (owner, value) = try await storage.live(after: nil, limit: 1).first else { return }
        _ = try unwrap(value, for: owner)
    }

    /// What ``rewrap(progress:)`` did.
    public struct RewrapCount: Sendable, Equatable {
        /// Keys wrapped again by the current secret (from the previous one, or unwrapped).
        public var rewrapped = 0
        /// Keys the current secret had wrapped already.
        public var current = 0

        public init(rewrapped: Int = 0, current: Int = 0) {
            self.rewrapped = rewrapped
            self.current = current
        }
    }

    /// Wraps every live key that the current secret did not wrap with the current one, so
    /// that the previous secret can be forgotten. Safe while services run: each row is
    /// replaced only if unchanged since it was read, and a retry finishes what a cut-off run left.
    public func rewrap(progress: (RewrapCount) -> Void = { _ in }) async throws -> RewrapCount {
        var count = RewrapCount()
        var after: UUID?
        while true {
            let page = try await storage.live(after: after, limit: 1_000)
            guard let last = page.last else { return count }
            for (owner, value) in page {
                if try wrappingSecret(of: value) == .current {
                    count.current += 1
                    continue
                }
                let material = try unwrap(value, for: owner)
                // A row changed meanwhile was destroyed (nothing to keep) or rewrapped by another run.
                if try await storage.replace(owner, value, with: try wrap(material, for: owner)) { count.rewrapped += 1 }
            }
            after = last.owner
            progress(count)
        }
    }

    /// Where the vault stands for an operator (`commons keys status`): the live keys by the
    /// secret that wraps them, and the destroyed ones by the secret that wrapped them when
    /// they were destroyed, whose copies in backups open while that secret exists.
    public func status() async throws -> KeyVaultStatus {
        var status = KeyVaultStatus()
        var after: UUID?
        while true {
            let page = try await storage.live(after: after, limit: 1_000)
            guard let last = page.last else { break }
            for (_, value) in page {
                switch try wrappingSecret(of: value) {
                case .current: status.liveUnderCurrent += 1
                case .previous: status.liveUnderPrevious += 1
                case .none: status.liveUnwrapped += 1
                }
            }
            after = last.owner
        }
        for group in try await storage.destroyedKeys() where group.wrappedBy?.isEmpty != true {
            if group.wrappedBy == nil {
                status.destroyedUnrecorded = group
            } else if group.wrappedBy == currentIdentifier {
                status.destroyedUnderCurrent = group
            } else if group.wrappedBy == previousIdentifier {
                status.destroyedUnderPrevious = group
            } else {
                status.destroyedUnderRetired.append(group)
            }
        }
        return status
    }

    // MARK: - The stored form

    private static let format: UInt8 = 1

    private enum WrappingSecret { case current, previous, none }

    private func wrap(_ material: Data, for owner: UUID) throws -> Data {
        let box = try AES.GCM.seal(material, using: secrets.wrapping, authenticating: owner.wrappingContext)
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Data([Self.format]) + currentIdentifier + combined
    }

    private func unwrap(_ value: Data, for owner: UUID) throws -> Data {
        let secret: SymmetricKey
        switch try wrappingSecret(of: value) {
        case .none: return value
        case .current: secret = secrets.wrapping
        case .previous: secret = secrets.previous ?? secrets.wrapping
        }
        guard let box = try? AES.GCM.SealedBox(combined: value.dropFirst(9)),
            let material = try? AES.GCM.open(box, using: secret, authenticating: owner.wrappingContext)
        else { throw DamagedKeyError(owner: owner) }
        return material
    }

    private func wrappingSecret(of value: Data) throws -> WrappingSecret {
        if value.count == 32 { return .none }
        guard value.count > 9, value.first == Self.format else {
            throw ConfigurationError(key: KeyVaultSecrets.current.name, problem: "a personal-data key is stored in a form this version does not know")
        }
        let identifier = value.dropFirst().prefix(8)
        if identifier == currentIdentifier { return .current }
        if let previousIdentifier, identifier == previousIdentifier { return .previous }
        throw ConfigurationError(
            key: KeyVaultSecrets.current.name,
            problem: """
                the personal-data keys were wrapped by a secret this process was not given: set \(KeyVaultSecrets.current.name) \
                (and, during a rotation, \(KeyVaultSecrets.previous.name)) to the secret the other services use
                """)
    }

    /// The id of the secret that wrapped a stored value; nil for a key stored unwrapped.
    private static func secretIdentifier(of value: Data) -> Data? {
        guard value.count > 9, value.first == format else { return nil }
        return Data(value.dropFirst().prefix(8))
    }

    /// Names a secret without revealing it: the first 8 bytes of an HMAC under it.
    private static func identifier(of secret: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data("commons key vault secret id".utf8), using: secret)).prefix(8)
    }
}

/// A stored key that its secret does not open: its row was altered.
public struct DamagedKeyError: Error, CustomStringConvertible {
    public let owner: UUID
    public var description: String { "the personal-data key of \(owner) does not open with its secret: its row was altered" }
}

private extension UUID {
    /// The owner's 16 bytes, authenticated with its wrapped key so that a row cannot be moved to another owner.
    var wrappingContext: Data { withUnsafeBytes(of: uuid) { Data($0) } }
}
