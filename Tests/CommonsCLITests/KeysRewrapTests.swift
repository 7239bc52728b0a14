import EventLogTestSupport
import Foundation
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
}
