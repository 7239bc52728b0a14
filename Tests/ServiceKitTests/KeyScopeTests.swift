import Crypto
import EventLog
import EventLogPostgres
import EventLogSQLite
import EventLogTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import Synchronization
import Testing

/// A request or a page of events looks each owner's key up once (``KeyScope``); nothing is
/// remembered beyond it, so erasure is as immediate as without it.
@Suite("key scopes")
struct KeyScopeTests {
    /// The real storage of a log's vault, counting the look-ups that reach it.
    final class CountingStorage: KeyStorage {
        let base: any KeyStorage
        let lookups = Atomic(0)

        init(_ base: any KeyStorage) { self.base = base }

        func storeIfAbsent(_ candidate: Data, for owner: UUID) async throws -> Data? {
            lookups.add(1, ordering: .relaxed)
            return try await base.storeIfAbsent(candidate, for: owner)
        }

        func stored(for owner: UUID) async throws -> Data? {
            lookups.add(1, ordering: .relaxed)
            return try await base.stored(for: owner)
        }

        func destroy(_ owner: UUID) async throws { try await base.destroy(owner) }
        func live(after owner: UUID?, limit: Int) async throws -> [(owner: UUID, value: Data)] { try await base.live(after: owner, limit: limit) }
        func replace(_ owner: UUID, _ old: Data, with new: Data) async throws -> Bool { try await base.replace(owner, old, with: new) }
    }

    private func storage(of log: TestLog) throws -> any KeyStorage {
        if let file = log.sqliteFile { return try SQLiteKeyStorage(path: file + ".keys") }
        return PostgresKeyStorage(store: try #require(log.store as? PostgresEventStore))
    }

    @Test("within a scope each owner's key is looked up once, outside it every time; a destroyed key is refused at once, in the scope and after it",
          arguments: Backend.allCases)
    func lookUpsAndErasure(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let counting = CountingStorage(try storage(of: log))
        let vault = WrappedKeyVault(storage: counting, secrets: KeyVaultSecrets(wrapping: SymmetricKey(size: .bits256)))
        let (owner, other, stranger) = (UUID(), UUID(), UUID())

        let key = try await KeyScope.run {
            let key = try await vault.key(for: owner)
            #expect(try await vault.key(for: owner) == key)
            #expect(try await vault.existingKey(for: owner) == key)
            // A child task shares its parent's scope.
            #expect(try await Task { try await vault.existingKey(for: owner) }.value == key)
            #expect(try await vault.existingKey(for: stranger) == nil)
            #expect(try await vault.existingKey(for: stranger) == nil)
            // An owner without a key yet gets one, though the scope remembers there was none.
            let made = try await vault.key(for: stranger)
            #expect(try await vault.existingKey(for: stranger) == made)
            return key
        }
        #expect(counting.lookups.load(ordering: .relaxed) == 3, "one look-up for the owner, two for the stranger (none, then made)")

        _ = try await vault.existingKey(for: owner)
        _ = try await vault.existingKey(for: owner)
        #expect(counting.lookups.load(ordering: .relaxed) == 5, "outside a scope nothing is remembered")

        try await KeyScope.run {
            #expect(try await vault.existingKey(for: owner) == key)
            _ = try await vault.key(for: other)
            try await vault.destroyKey(for: owner)
            #expect(try await vault.existingKey(for: owner) == nil, "the scope forgets a key it destroys")
            await #expect(throws: KeyDestroyedError.self) { try await vault.key(for: owner) }
        }
        // Destroyed by another scope (another request, another process): the next scope asks again.
        let remembered = try await KeyScope.run { try await vault.existingKey(for: other) }
        #expect(remembered != nil)
        try await vault.destroyKey(for: other)
        let after = try await KeyScope.run { try await vault.existingKey(for: other) }
        #expect(after == nil)
        await log.close()
    }

    @Test("a request runs in a key scope of its own; the body of a live stream it answers with does not, so a deletion reaches an open stream")
    func requestsAndStreams() async throws {
        let harness = try await KitHarness(backend: .sqlite)
        try await harness.test { client, _, _ in
            try await client.execute(uri: "/v1/key-scope", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains(#""handler":true"#), "\(text)")
                #expect(text.contains(#""stream":false"#), "\(text)")
            }
        }
    }
}
