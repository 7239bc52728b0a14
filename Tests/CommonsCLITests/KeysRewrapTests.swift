import EventLogTestSupport
import Foundation
import GRDB
import ServiceKit
import Testing

/// `commons keys rewrap`, run as a process on both backends: the middle step of rotating
/// the vault secret.
@Suite("keys rewrap")
struct KeysRewrapTests {
    private func secret() -> String { Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString() }

    @Test(
        "rotating the vault secret: rewrap with old and new, then the new one alone opens every key and the old one is refused",
        arguments: Backend.allCases)
    func rotation(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let data = try scratchDirectory().path
        let (old, new) = (secret(), secret())
        let base = ["COMMONS_DATA_DIR": data, "COMMONS_BCRYPT_COST": "4", "COMMONS_SIGNING_KEY_SECRET": secret()]
        let created = try await commons(
            "accounts", "create-admin", "rotate@example.org", "--password-stdin", log: log,
            stdin: Data("a long enough phrase\n".utf8), environment: base.merging(["COMMONS_KEY_VAULT_SECRET": old]) { $1 })
        #expect(created.status == 0, "\(created)")

        let refused = try await commons("keys", "rewrap", log: log, environment: base.merging(["COMMONS_KEY_VAULT_SECRET": new]) { $1 })
        #expect(refused.status != 0, "without the previous secret the old keys do not open")
        #expect(refused.stderr.contains("COMMONS_KEY_VAULT_PREVIOUS_SECRET"), "\(refused)")

        let during = base.merging(["COMMONS_KEY_VAULT_SECRET": new, "COMMONS_KEY_VAULT_PREVIOUS_SECRET": old]) { $1 }
        let rewrapped = try await commons("keys", "rewrap", log: log, environment: during)
        #expect(rewrapped.status == 0, "\(rewrapped)")
        // The account's key and the key that seals its id in its email reservation.
        #expect(rewrapped.stdout.contains("keys rewrapped: 2; already wrapped by the current secret: 0"), "\(rewrapped)")
        let again = try await commons("keys", "rewrap", log: log, environment: during)
        #expect(again.stdout.contains("keys rewrapped: 0; already wrapped by the current secret: 2"), "\(again)")

        let after = try await commons(
            "accounts", "create-admin", "rotate@example.org", log: log,
            environment: base.merging(["COMMONS_KEY_VAULT_SECRET": new]) { $1 })
        #expect(after.status == 0, "\(after)")
        let stale = try await commons(
            "accounts", "create-admin", "rotate@example.org", log: log,
            environment: base.merging(["COMMONS_KEY_VAULT_SECRET": old]) { $1 })
        #expect(stale.status != 0 && stale.stderr.contains("COMMONS_KEY_VAULT_SECRET"), "\(stale)")
        await log.close()
    }

    @Test("keys status says by when to rotate after a key is destroyed, and --check fails once the horizon has passed")
    func statusAndCheck() async throws {
        let log = try await Backend.sqlite.makeLog()
        let environment = ["COMMONS_KEY_VAULT_SECRET": secret()]
        let vault = try ServiceRuntime.vault(beside: log.store, environment: EnvironmentVariables(environment))
        let (erased, kept) = (UUID(), UUID())
        for owner in [erased, kept] { _ = try await vault.key(for: owner) }
        try await vault.destroyKey(for: UUID()) // an owner without a key: nothing to retire
        let quiet = try await commons("keys", "status", "--check", log: log, environment: environment)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stdout.contains("no rotation is due"), "\(quiet)")

        try await vault.destroyKey(for: erased)
        let due = try await commons("keys", "status", "--check", log: log, environment: environment)
        #expect(due.status == 0, "\(due)")
        #expect(due.stdout.contains("destroyed keys whose copies open with the current secret: 1"), "\(due)")
        #expect(due.stdout.contains("due by "), "\(due)")

        // The same key destroyed 40 days ago: a 30-day horizon has passed.
        let keys = try DatabaseQueue(path: try #require(log.sqliteFile) + ".keys")
        try await keys.write { db in
            try db.execute(sql: "UPDATE keys SET destroyed_at = destroyed_at - 40 WHERE owner = ?", arguments: [erased.uuidString.lowercased()])
        }
        try keys.close()
        let overdue = try await commons("keys", "status", "--check", log: log, environment: environment)
        #expect(overdue.status != 0)
        #expect(overdue.stdout.contains("overdue since "), "\(overdue)")
        #expect(overdue.stderr.contains("commons keys rewrap"), "\(overdue)")
        await log.close()
    }
}
