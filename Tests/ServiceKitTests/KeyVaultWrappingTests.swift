import Crypto
import EventLog
import EventLogPostgres
import EventLogSQLite
import EventLogTestSupport
import Foundation
import ServiceKit
import Testing

/// The key vault keeps keys only wrapped by a secret from outside the database, and a
/// rotation of that secret retires every copy made before it.
@Suite("key vault wrapping")
struct KeyVaultWrappingTests {
    /// The vault's raw rows on `log`, as the database (and its backups) hold them.
    private func storage(of log: TestLog) throws -> any KeyStorage {
        if let file = log.sqliteFile { return try SQLiteKeyStorage(path: file + ".keys") }
        return PostgresKeyStorage(store: try #require(log.store as? PostgresEventStore))
    }

    private func secret() -> SymmetricKey { SymmetricKey(size: .bits256) }

    @Test("a stored key is not the key: the row holds it wrapped, bound to its owner", arguments: Backend.allCases)
    func rowsHoldWrappedKeys(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let vault = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: secret()))
        let (owner, other) = (UUID(), UUID())
        let key = try await vault.key(for: owner)
        #expect(key.count == 32)
        #expect(try await vault.key(for: owner) == key)
        #expect(try await vault.existingKey(for: owner) == key)
        let row = try #require(try await storage(of: log).stored(for: owner))
        #expect(row != key && row.range(of: key) == nil, "the database never sees the key itself")
        // A row copied to another owner does not open: it is bound to its own.
        _ = try await storage(of: log).storeIfAbsent(row, for: other)
        await #expect(throws: DamagedKeyError.self) { try await vault.existingKey(for: other) }
        await log.close()
    }

    @Test("a service given another secret than the one that wrapped the keys refuses with one line naming the variable", arguments: Backend.allCases)
    func wrongSecretIsRefused(backend: Backend) async throws {
        let log = try await backend.makeLog()
        _ = try await ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: secret())).key(for: UUID())
        let stranger = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: secret()))
        await #expect {
            try await stranger.checkSecrets()
        } throws: { error in
            (error as? ConfigurationError)?.key == "COMMONS_KEY_VAULT_SECRET"
        }
        await log.close()
    }

    @Test(
        "rotation: with old and new secret every key still opens; rewrap moves them all to the new one; a backup from before opens with nothing once the old secret is gone",
        arguments: Backend.allCases)
    func rotationRetiresOldCopies(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let (old, new) = (secret(), secret())
        let before = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: old))
        let (kept, erased, legacy) = (UUID(), UUID(), UUID())
        let keptKey = try await before.key(for: kept)
        _ = try await before.key(for: erased)
        // A key stored before keys were wrapped: 32 bytes as they are.
        let legacyKey = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) })
        _ = try await storage(of: log).storeIfAbsent(legacyKey, for: legacy)
        #expect(try await before.existingKey(for: legacy) == legacyKey)
        // What a backup taken now holds for the person about to be erased.
        let backup = try #require(try await storage(of: log).stored(for: erased))
        try await before.destroyKey(for: erased)
        #expect(try await before.existingKey(for: erased) == nil)

        let during = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: new, previous: old))
        try await during.checkSecrets()
        #expect(try await during.existingKey(for: kept) == keptKey)
        #expect(try await during.rewrap() == .init(rewrapped: 2, current: 0))
        #expect(try await during.rewrap() == .init(rewrapped: 0, current: 2), "a second run finds nothing to do")

        let after = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: new))
        try await after.checkSecrets()
        #expect(try await after.existingKey(for: kept) == keptKey)
        #expect(try await after.existingKey(for: legacy) == legacyKey)
        #expect(try await after.existingKey(for: erased) == nil)
        // The old row restored from the backup: nothing given to a service opens it any more.
        let restored = try await Backend.sqlite.makeLog()
        _ = try await storage(of: restored).storeIfAbsent(backup, for: erased)
        let onRestored = try ServiceRuntime.vault(beside: restored.store, secrets: KeyVaultSecrets(wrapping: new))
        await #expect(throws: ConfigurationError.self) { try await onRestored.existingKey(for: erased) }
        await restored.close()
        await log.close()
    }

    @Test(
        "the status names the destroyed keys whose copies still open with a secret the services hold, and a rotation retires them",
        arguments: Backend.allCases)
    func statusOfDestroyedKeys(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let (old, new) = (secret(), secret())
        let before = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: old))
        let (first, second, kept) = (UUID(), UUID(), UUID())
        for owner in [first, second, kept] { _ = try await before.key(for: owner) }
        try await before.destroyKey(for: first)
        var status = try await before.status()
        #expect(status.liveUnderCurrent == 2)
        #expect(status.destroyedUnderCurrent?.count == 1)
        #expect(status.oldestStillOpenable != nil)

        // Mid-rotation, a key the old secret still wraps is destroyed under the old one.
        let during = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: new, previous: old))
        try await during.destroyKey(for: second)
        status = try await during.status()
        #expect(status.destroyedUnderPrevious?.count == 2 && status.destroyedUnderCurrent == nil)
        #expect(status.liveUnderPrevious == 1)
        _ = try await during.rewrap()

        // Once the old secret is gone, no destroyed key opens with what the services hold.
        let after = try ServiceRuntime.vault(beside: log.store, secrets: KeyVaultSecrets(wrapping: new))
        status = try await after.status()
        #expect(status.liveUnderCurrent == 1)
        #expect(status.destroyedUnderRetired.map(\.count).reduce(0, +) == 2)
        #expect(status.oldestStillOpenable == nil)
        // Destroying a key again keeps what its first destruction recorded.
        try await after.destroyKey(for: first)
        #expect(try await after.status().destroyedUnderRetired.map(\.count).reduce(0, +) == 2)
        await log.close()
    }
}
