import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import Testing

/// `commons replay` and `commons accounts create-admin`, run as processes on both backends.
@Suite("commons replay and accounts")
struct ReplayAndAdminTests {
    private func sessionCount(in path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0 }
    }

    @Test(
        "create-admin makes an account with the password from stdin, then promotes it; without a password for a new email it fails",
        arguments: Backend.allCases)
    func createAdmin(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let data = try scratchDirectory().path
        // The admin's address is reserved under a key derived from accounts' secret.
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let environment = ["COMMONS_DATA_DIR": data, "COMMONS_BCRYPT_COST": "4", "COMMONS_SIGNING_KEY_SECRET": secret]
        let created = try await commons(
            "accounts", "create-admin", "Boss@Example.org", "--password-stdin", log: log,
            stdin: Data("a long enough phrase\n".utf8), environment: environment)
        #expect(created.status == 0, "\(created)")
        #expect(created.stdout.hasPrefix("Boss@Example.org is an admin (account "))
        let again = try await commons("accounts", "create-admin", "boss@example.org", log: log, environment: environment)
        #expect(again.status == 0, "\(again)")
        let account = try #require(try await allEvents(log.store, atLeast: 5).first { $0.stream.hasPrefix("account-") }?.stream)
        let types = try await log.store.read(stream: account).map(\.type)
        #expect(types == ["AccountRegistered", "RoleChanged"])

        let refused = try await commons("accounts", "create-admin", "nobody@example.org", log: log, environment: environment)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--password-stdin"), "\(refused)")
        let passwordless = try await commons("accounts", "create-admin", "nobody@example.org", "--password-stdin", log: log, environment: environment)
        #expect(passwordless.status != 0)
        #expect(passwordless.stderr.contains("stdin held no password"), "\(passwordless)")
        #expect(
            try await commons("accounts", "create-admin", "nobody@example.org", "--password", "x", log: log, environment: environment).status != 0,
            "a password on the command line is not taken")
        await log.close()
    }

    @Test("replay rebuilds a service's read model into a new file, up to a checkpoint, and swaps it in", arguments: Backend.allCases)
    func replay(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let data = try scratchDirectory().path
        let environment = ["COMMONS_DATA_DIR": data, "COMMONS_BCRYPT_COST": "4"]
        // Three sign-ins, as the accounts service records them.
        for n in 1...3 {
            let started = SessionStarted(
                sessionId: UUID(), accountId: UUID(), device: Sealed(keyId: UUID(), box: "phone \(n)"), refreshTokenHash: "hash-\(n)",
                startedAt: Date())
            _ = try await log.store.append(
                to: "session-\(started.sessionId.uuidString.lowercased())", expected: .noStream,
                events: [try EventCatalog.encode(started, metadata: EventMetadata())])
        }
        // Wait until global readers see all three (another test may hold PostgreSQL's horizon back).
        let sessions = try await allEvents(log.store, atLeast: 3).filter { $0.stream.hasPrefix("session-") }
        #expect(sessions.count == 3)

        let past = (data as NSString).appendingPathComponent("past.sqlite")
        let partial = try await commons(
            "replay", "accounts", "--until", sessions[0].checkpoint.description, "--into", past, log: log, environment: environment)
        #expect(partial.status == 0, "\(partial)")
        #expect(try sessionCount(in: past) == 1)

        let swapped = try await commons("replay", "accounts", "--swap", log: log, environment: environment)
        #expect(swapped.status == 0, "\(swapped)")
        let pointer = try String(contentsOfFile: (data as NSString).appendingPathComponent("accounts.current"), encoding: .utf8)
        #expect(pointer.hasPrefix("accounts.") && pointer != "accounts.sqlite")
        #expect(try sessionCount(in: (data as NSString).appendingPathComponent(pointer)) == 3)
        #expect(swapped.stderr.contains("events/s"))

        let unknown = try await commons("replay", "nothing", log: log, environment: environment)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no service 'nothing'"))
        await log.close()
    }
}
