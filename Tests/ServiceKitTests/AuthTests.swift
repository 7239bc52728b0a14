import Contracts
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import ServiceKit
import Synchronization
import Testing

@Suite("authentication")
struct AuthTests {
    @Test("no token, a bad, expired, forged, future or other-audience token gets 401; a member at an admin route 403")
    func rejections() async throws {
        let harness = try await KitHarness()
        let member = try await harness.token()
        let admin = try await harness.token(role: .admin)
        let expired = try await harness.token(issuedAt: Date().addingTimeInterval(-3_600))
        let foreign = try await SigningKeyRing.generate().signer()
        let forged = try await foreign.collection.sign(
            AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .admin, issuedAt: Date(), lifetime: 900), kid: .init(string: foreign.kid))
        let future = try await harness.token(role: .admin, issuedAt: Date().addingTimeInterval(600))
        var elsewhere = AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .admin, issuedAt: Date(), lifetime: 900)
        elsewhere.aud = AudienceClaim(value: "another-api")
        let forAnother = try await harness.sign(elsewhere)
        try await harness.test { client, _, _ in
            let body = ByteBuffer(string: #"{"name": "a", "count": 1}"#)
            try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(), body: body) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            for token in ["garbage", expired, forged, future, forAnother] {
                try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(token: token), body: body) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: member)) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: admin)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("a token the verifier has verified (and remembers) is refused once it expires")
    func rememberedTokenExpires() async throws {
        let ring = SigningKeyRing.generate()
        let issued = Date()
        let clock = ManualClock(issued)
        let verifier = TokenVerifier(source: LocalPublicKeySource { ring }, clock: clock.clock, logger: Logger(label: "test"))
        let (signer, kid) = try await ring.signer()
        let token = try await signer.sign(
            AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .admin, issuedAt: issued, lifetime: 900), kid: .init(string: kid))
        // The token carries its expiry in whole seconds.
        let expiresAt = try #require(try await verifier.verify(token).expiresAt)
        clock.set(expiresAt.addingTimeInterval(-1))
        #expect(try await verifier.verify(token).role == .admin, "remembered, and not expired yet")
        clock.set(expiresAt)
        await #expect(throws: (any Error).self, "expired, though remembered") { try await verifier.verify(token) }
    }

    @Test("a revoked session's and a deleted account's tokens stop working once the service has read the event")
    func revocation() async throws {
        let harness = try await KitHarness()
        let (account, session) = (UUID(), UUID())
        let token = try await harness.token(account: account, session: session)
        let other = UUID()
        let otherToken = try await harness.token(account: other)
        try await harness.test { client, runtime, _ in
            // Both sessions are found live first, and so remembered (``LiveSessions``).
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: token)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: otherToken)) { #expect($0.status == .forbidden) }
            let revoked = try await runtime.store.append(
                to: "session-\(session)", expected: .any,
                events: [
                    EventCatalog.encode(SessionRevoked(sessionId: session, accountId: account, reason: "logout", at: Date()))
                ])
            let deleted = try await runtime.store.append(
                to: "account-\(other)", expected: .any,
                events: [
                    EventCatalog.encode(AccountDeleted(accountId: other, deletedAt: Date()))
                ])
            #expect(await runtime.waitUntilApplied(max(revoked.checkpoint, deleted.checkpoint), timeout: .seconds(30)))
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: token)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: otherToken)) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test("a token signed with a key added after start is accepted once the keys are fetched again")
    func keyRotation() async throws {
        let harness = try await KitHarness()
        let ring = KeyRingBox(harness.ring)
        let (application, _, _) = try await ServiceApp.build(
            WidgetsService.definition, configuration: harness.configuration, store: harness.log.store,
            publicKeys: LocalPublicKeySource { ring.value })
        let before = try await harness.token(role: .admin)
        try await application.test(.router) { client in
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: before)) { #expect($0.status == .ok) }
            var rotated = ring.value
            rotated.rotate()
            ring.value = rotated
            let (signer, kid) = try await rotated.signer()
            try await Task.sleep(for: .milliseconds(1_100)) // the verifier refetches keys at most once a second
            let after = try await signer.sign(
                AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .admin, issuedAt: Date(), lifetime: 900), kid: .init(string: kid))
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: after)) { #expect($0.status == .ok) }
            // The old key still verifies until it is retired.
            try await client.execute(uri: "/v1/admin/widgets", method: .get, headers: .json(token: before)) { #expect($0.status == .ok) }
        }
        await harness.log.close()
    }
}

final class KeyRingBox: @unchecked Sendable {
    private let lock = NSLock()
    private var ring: SigningKeyRing
    init(_ ring: SigningKeyRing) { self.ring = ring }
    var value: SigningKeyRing {
        get { lock.withLock { ring } }
        set { lock.withLock { ring = newValue } }
    }
}
