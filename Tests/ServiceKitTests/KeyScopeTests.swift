import Contracts
import Crypto
import EventLog
import EventLogPostgres
import EventLogSQLite
import EventLogTestSupport
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Logging
import ReadModel
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

        func stored(for owners: [UUID]) async throws -> [UUID: Data] {
            lookups.add(1, ordering: .relaxed)
            return try await base.stored(for: owners)
        }

        func destroy(_ owner: UUID, wrappedBy: Data?) async throws { try await base.destroy(owner, wrappedBy: wrappedBy) }
        func destroyedKeys() async throws -> [DestroyedKeys] { try await base.destroyedKeys() }
        func live(after owner: UUID?, limit: Int) async throws -> [(owner: UUID, value: Data)] { try await base.live(after: owner, limit: limit) }
        func replace(_ owner: UUID, _ old: Data, with new: Data) async throws -> Bool { try await base.replace(owner, old, with: new) }
    }

    private func storage(of log: TestLog) throws -> any KeyStorage {
        if let file = log.sqliteFile { return try SQLiteKeyStorage(path: file + ".keys") }
        return PostgresKeyStorage(store: try #require(log.store as? PostgresEventStore))
    }

    /// A vault over the log's key storage, and the storage's count of look-ups.
    private func countedVault(of log: TestLog) throws -> (CountingStorage, WrappedKeyVault) {
        let counting = CountingStorage(try storage(of: log))
        return (counting, WrappedKeyVault(storage: counting, secrets: KeyVaultSecrets(wrapping: SymmetricKey(size: .bits256))))
    }

    @Test(
        "within a scope each owner's key is looked up once, outside it every time; a destroyed key is refused at once, in the scope and after it",
        arguments: Backend.allCases)
    func lookUpsAndErasure(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let (counting, vault) = try countedVault(of: log)
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

    @Test(
        "the keys of many owners are looked up together into a scope, a destroyed or missing one remembered as none; outside a scope nothing is",
        arguments: Backend.allCases)
    func keysRememberedTogether(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let (counting, vault) = try countedVault(of: log)
        let (first, second, erased, keyless) = (UUID(), UUID(), UUID(), UUID())
        let (firstKey, secondKey) = (try await vault.key(for: first), try await vault.key(for: second))
        _ = try await vault.key(for: erased)
        try await vault.destroyKey(for: erased)
        let before = counting.lookups.load(ordering: .relaxed)

        try await vault.rememberKeys(of: [first, second])
        #expect(counting.lookups.load(ordering: .relaxed) == before, "no scope, nothing to remember in")

        try await KeyScope.run {
            try await vault.rememberKeys(of: [first, second, erased, keyless, first])
            #expect(counting.lookups.load(ordering: .relaxed) == before + 1)
            #expect(try await vault.existingKey(for: first) == firstKey)
            #expect(try await vault.existingKey(for: second) == secondKey)
            #expect(try await vault.existingKey(for: erased) == nil)
            #expect(try await vault.existingKey(for: keyless) == nil)
            try await vault.rememberKeys(of: [first, second, keyless])
            #expect(counting.lookups.load(ordering: .relaxed) == before + 1, "all of them known to the scope already")
            await #expect(throws: KeyDestroyedError.self) { try await vault.key(for: erased) }
        }
        await log.close()
    }

    @Test(
        "a projection gets the keys of a page's sealed listing texts with the page (PostgreSQL) or looks them up together (SQLite), and opens each with its owner's key",
        arguments: Backend.allCases)
    func projectionPageLooksUpTogether(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let (counting, vault) = try countedVault(of: log)
        let sealer = PersonalDataSealer(vault: vault)
        let owners = (0..<4).map { _ in UUID() }
        var events: [NewEvent] = []
        for (number, owner) in owners.enumerated() {
            let posted = ListingPosted(
                listingId: UUID(), ownerId: owner, title: "Chair \(number)", description: "Oak", category: "furniture",
                price: nil, publicLocation: Coordinate(lat: 52.09, lon: 5.12), postedAt: Date())
            events.append(try EventCatalog.encode(try await sealer.sealingListingText(posted, owner: owner), id: UUID(), metadata: EventMetadata()))
        }
        // One append, so one transaction: the runner reads all four in one page.
        let head = try await log.store.append(to: "listing-\(UUID())", expected: .noStream, events: events).checkpoint
        try await vault.destroyKey(for: owners[3])
        let before = counting.lookups.load(ordering: .relaxed)

        let database = try ReadModelDatabase(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("commons-keys-\(UUID())"),
            name: "titles", projections: [OpenedTitles()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: OpenedTitles(), keys: vault, logger: Logger(label: "test"))
        let running = Task { try await runner.run() }
        #expect(await runner.waitUntilApplied(head, timeout: .seconds(30)))
        running.cancel()
        try? await running.value
        if backend == .postgres {
            #expect(counting.lookups.load(ordering: .relaxed) == before, "the keys came with the page, in its statement")
        } else {
            #expect(counting.lookups.load(ordering: .relaxed) == before + 1, "one look-up for the page's four owners")
        }
        let titles = try await database.pool.read { db in try String.fetchAll(db, sql: "SELECT title FROM titles ORDER BY title") }
        #expect(titles == ["", "Chair 0", "Chair 1", "Chair 2"], "the erased owner's text opens to nothing")
        await log.close()
    }

    /// The titles of posted listings, opened with their owners' keys.
    struct OpenedTitles: Projection {
        let name = "opened-titles"
        let filter = EventFilter(categories: ["listing"])

        func registerMigrations(in migrator: inout DatabaseMigrator) {
            migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE titles (title TEXT NOT NULL)") }
        }

        func sealedKeyOwners(of event: RecordedEvent) -> [UUID] { ListingTextOpening.keyOwners(of: event) }
        var keyTypes: Set<String> { ListingTextOpening.textTypes }

        func prepare(_ event: RecordedEvent, keys: (any KeyVault)?) async throws -> (any Sendable)? {
            try await ListingTextOpening.decode(event, sealer: keys.map(PersonalDataSealer.init(vault:)))
        }

        func apply(_ event: RecordedEvent, in db: Database) throws {}

        func apply(_ event: RecordedEvent, prepared: (any Sendable)?, in db: Database) throws {
            guard let posted = prepared as? ListingPosted else { return }
            try db.execute(sql: "INSERT INTO titles (title) VALUES (?)", arguments: [posted.title ?? "?"])
        }
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
