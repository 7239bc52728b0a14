import Crypto
import EventLog
import EventLogTestSupport
import Foundation
import JWTKit
import ServiceKit
import Testing

@testable import AccountsService

@Suite("signing keys shared by every accounts replica")
struct SharedSigningKeysTests {
    private func replica(on log: TestLog, secret: SymmetricKey, rotationDays: Double = 30) throws -> SigningKeyStore {
        let keys = SigningKeyStore(sealingKey: .success(secret), rotationInterval: rotationDays * 86_400, refreshInterval: 3_600)
        keys.attach(try ServiceRuntime.serviceSecrets(beside: log.store))
        return keys
    }

    @Test(
        "two replicas sign with and publish one ring; a rotation on one is seen by the other; older tokens still verify",
        arguments: Backend.allCases)
    func sharedRing(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let secret = SymmetricKey(size: .bits256)
        let first = try replica(on: log, secret: secret), second = try replica(on: log, secret: secret)
        let ring = try await first.ring()
        #expect(try await second.ring() == ring, "the second replica reads the ring the first made")

        let (signer, kid) = try await ring.signer()
        let account = UUID()
        let claims = AccessTokenClaims(accountId: account, sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 900)
        let before = try await signer.sign(claims, kid: JWKIdentifier(string: kid))

        let rotated = try await first.rotate()
        #expect(rotated.keys.count == ring.keys.count + 1)
        // The second replica's cache is an hour old by its settings: a verifier asking for the
        // public keys (as for a token with an unknown kid) reads afresh.
        let published = try await second.fetchJWKS()
        #expect(published == (try rotated.jwks()))
        #expect(try await second.ring(fresh: true).keys.last?.kid == rotated.keys.last?.kid)
        let verifier = TokenVerifier(source: second, logger: .init(label: "test"))
        #expect(try await verifier.verify(before).accountId == account, "a token signed before the rotation verifies")
        await log.close()
    }

    @Test("a ring sealed with another secret is refused with a line naming COMMONS_SIGNING_KEY_SECRET; the store holds no key in clear")
    func sealed() async throws {
        let log = try await Backend.sqlite.makeLog()
        let ring = try await replica(on: log, secret: SymmetricKey(size: .bits256)).ring()
        await #expect {
            _ = try await replica(on: log, secret: SymmetricKey(size: .bits256)).ring()
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("COMMONS_SIGNING_KEY_SECRET") == true
        }
        let file = try Data(contentsOf: URL(fileURLWithPath: try #require(log.sqliteFile) + ".keys"))
        for key in ring.keys { #expect(file.range(of: Data(key.privateKey.utf8)) == nil) }
        await log.close()
    }

    @Test("a ring from before the keys were shared becomes the shared ring, and its file, with keys in clear, is deleted")
    func legacyFileImportedAndDeleted() async throws {
        let log = try await Backend.sqlite.makeLog()
        let legacy = SigningKeyRing.generate()
        let file = NSTemporaryDirectory() + "accounts-signing-keys-\(UUID()).json"
        try JSONEncoder().encode(legacy).write(to: URL(fileURLWithPath: file))
        let keys = SigningKeyStore(
            sealingKey: .success(SymmetricKey(size: .bits256)), rotationInterval: 30 * 86_400, refreshInterval: 3_600, legacyFile: file)
        keys.attach(try ServiceRuntime.serviceSecrets(beside: log.store))
        #expect(try await keys.ring().keys.map(\.kid) == legacy.keys.map(\.kid), "tokens already issued keep verifying")
        #expect(!FileManager.default.fileExists(atPath: file))
        await log.close()
    }

    @Test("replicas starting at once make one ring between them", arguments: Backend.allCases)
    func concurrentFirstUse(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let secret = SymmetricKey(size: .bits256)
        let replicas = try (0..<6).map { _ in try replica(on: log, secret: secret) }
        let rings = try await withThrowingTaskGroup(of: SigningKeyRing.self) { group in
            for keys in replicas { group.addTask { try await keys.ring() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(rings.map { $0.keys.map(\.kid) }).count == 1)
        await log.close()
    }
}
