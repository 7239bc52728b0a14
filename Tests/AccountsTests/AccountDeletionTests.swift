import Contracts
import Crypto
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Testing

@Suite("account deletion")
struct AccountDeletionTests {
    /// Every byte of every file under `directory` (read models, idempotency records, key files, logs).
    private func bytes(under directory: String) -> Data {
        var all = Data()
        guard let files = FileManager.default.enumerator(atPath: directory) else { return all }
        for case let file as String in files {
            if let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(file)) { all.append(data) }
        }
        return all
    }

    @Test("deleting needs a sign-in within 10 minutes: a session begun an hour ago, however fresh its token, gets 403")
    func recentSignIn() async throws {
        try await AccountsHarness().test { client in
            let tokens = try await client.register("old.session@example.org")
            // A session of the same account signed in an hour ago, refreshed just now.
            let secret = "an-hour-old-session-secret"
            let session = UUID()
            let startedAt = Date().addingTimeInterval(-3_600)
            _ = try await client.runtime.store.append(
                to: "session-\(session.uuidString.lowercased())", expected: .noStream,
                events: [
                    try EventCatalog.encode(
                        SessionStarted(
                            sessionId: session, accountId: tokens.accountId, device: Sealed(keyId: tokens.accountId, box: ""),
                            refreshTokenHash: SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined(),
                            startedAt: startedAt))
                ])
            let refreshed = try await client.call(
                .post, "/v1/sessions/refresh", json: ["refreshToken": "\(session.uuidString.lowercased()).\(secret)"])
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            let old = try refreshed.decode(AccountsHarness.Tokens.self)
            let refused = try await client.call(.delete, "/v1/me", token: old.accessToken)
            #expect(refused.status == .forbidden)
            #expect(refused.json["type"] as? String == "https://commons.example/problems/reauthentication-required")
            #expect(try await client.call(.get, "/v1/me", token: old.accessToken).status == .ok, "nothing was deleted")
            #expect(try await client.call(.delete, "/v1/me", token: tokens.accessToken).status == .noContent, "a fresh sign-in may")
        }
    }

    @Test(
        "deletion forgets the account's first answers in every service's idempotency records and its mail in the outbox", arguments: Backend.allCases)
    func forgetsRecordsAndMail(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        try await harness.test { client in
            let email = "forget.me@example.org"
            let tokens = try await client.register(email)
            #expect(try await client.call(.post, "/v1/password-resets", json: ["email": email]).status == .accepted)
            let outbox = URL(fileURLWithPath: harness.dataDirectory).appendingPathComponent("outbox")
            func mailTo() -> Int {
                ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).filter { name in
                    (try? String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8))?.contains(email) == true
                }.count
            }
            #expect(mailTo() == 1)
            // What another service kept for this account's retries: a listing with its pickup point.
            let records = client.runtime.idempotency
            let scope = "listings \(tokens.accountId.uuidString.lowercased()) POST /v1/listings"
            let now = Date()
            #expect(
                try await records.claim(scope: scope, key: "post-1", requestHash: "h", now: now, leaseUntil: now.addingTimeInterval(60)) == .claimed)
            try await records.finish(scope: scope, key: "post-1", response: Data("12 Harbour Lane".utf8))

            #expect(try await client.call(.delete, "/v1/me", token: tokens.accessToken).status == .noContent)
            #expect(mailTo() == 0, "the reset mail with the address and code is gone")
            #expect(
                try await records.claim(scope: scope, key: "post-1", requestHash: "h", now: now, leaseUntil: now.addingTimeInterval(60)) == .claimed,
                "the first answer is forgotten")
        }
    }

    @Test("a deletion cut off after the key was destroyed is finished by the retry, not answered 404", arguments: Backend.allCases)
    func retryAfterKeyDestroyed(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let email = "half.deleted@example.org"
            let tokens = try await client.register(email)
            // The first try got as far as the key, then its process died.
            try await client.runtime.keyVault.destroyKey(for: tokens.accountId)
            let retried = try await client.call(.delete, "/v1/me", token: tokens.accessToken)
            #expect(retried.status == .noContent, "\(retried.text)")
            let types = try await client.runtime.store.read(stream: "account-\(tokens.accountId.uuidString.lowercased())").map(\.type)
            #expect(types.last == "AccountDeleted")
            let position = try #require(retried.headers[.commonsPosition])
            #expect(
                try await client.call(.get, "/v1/me", token: tokens.accessToken, headers: [.commonsMinPosition: position]).status == .unauthorized)
        }
    }

    @Test(
        "the email's reservation and sign-in streams name no account: its id is sealed with a key of its own, gone with the account",
        arguments: Backend.allCases)
    func reservationsNameNoAccount(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let tokens = try await client.register("sealed.reservation@example.org")
            #expect(try await client.signIn("sealed.reservation@example.org").status == .created)
            #expect(try await client.signIn("sealed.reservation@example.org", password: "not the password").status == .unauthorized)
            let sealer = PersonalDataSealer(vault: client.runtime.keyVault)
            /// The events of the address's streams (reservations and sign-in counts), with the sealed accounts they hold.
            func addressEvents() async throws -> (data: [String], sealed: [Sealed]) {
                var found: ([String], [Sealed]) = ([], [])
                var checkpoint = Checkpoint.start
                while true {
                    let page = try await client.runtime.store.readAll(after: checkpoint, limit: 500, filter: .all)
                    for event in page.events where event.stream.hasPrefix("email-") || event.stream.hasPrefix("signinthrottle-") {
                        found.0.append(String(decoding: event.data, as: UTF8.self).lowercased())
                        if let reserved = try CommonsEvents.catalog.decode(event) as? EmailReserved, let sealed = reserved.account {
                            found.1.append(sealed)
                        }
                    }
                    if page.checkpoint == checkpoint { break }
                    checkpoint = page.checkpoint
                }
                return found
            }
            /// Them once there are `count` (PostgreSQL shows the last ones once every older transaction has ended).
            func addressEvents(atLeast count: Int) async throws -> (data: [String], sealed: [Sealed]) {
                let deadline = ContinuousClock.now + .seconds(60)
                var found = try await addressEvents()
                while found.data.count < count, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                    found = try await addressEvents()
                }
                return found
            }
            let id = tokens.accountId.uuidString.lowercased()
            let before = try await addressEvents(atLeast: 4)
            #expect(before.data.count == 4, "a reservation, an attempt, a success, an attempt")
            #expect(before.data.allSatisfy { !$0.contains(id) }, "no event of the address's streams names the account in clear")
            let sealed = try #require(before.sealed.first)
            #expect(sealed.keyId != tokens.accountId, "the key that seals it is not named after the account")
            #expect(try await sealer.open(sealed, as: UUID.self) == tokens.accountId)

            #expect(try await client.call(.delete, "/v1/me", token: tokens.accessToken).status == .noContent)
            let after = try await addressEvents(atLeast: 5)
            #expect(after.data.count == 5, "and the release")
            #expect(after.data.allSatisfy { !$0.contains(id) })
            #expect(try await sealer.open(sealed, as: UUID.self) == nil, "the address key went with the account")
        }
    }

    @Test(
        "after deletion no email (nor its SHA-256), phone, name or device of the account is readable in the log or any read-model file",
        arguments: Backend.allCases)
    func personalDataIsGone(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        let email = "delete.me.\(UUID().uuidString.prefix(6).lowercased())@example.org"
        let name = "Zebediah Quixworth"
        let phone = "+44 7700 900123"
        try await harness.test { client in
            let tokens = try await client.register(email, name: name)
            _ = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["phone": phone])
            let signedIn = try await client.signIn(email)
            // The device name is sealed in the log, and opened for its owner (once the read
            // model has the new session: the read waits for the sign-in's position).
            let sessions = try await client.call(
                .get, "/v1/sessions", token: tokens.accessToken,
                headers: [.commonsMinPosition: try #require(signedIn.position)])
            #expect(sessions.text.contains("TestPhone/1.0"), "\(sessions.text)")
            let deleted = try await client.call(.delete, "/v1/me", token: tokens.accessToken)
            #expect(deleted.status == .noContent)
            let position = try #require(deleted.headers[.commonsPosition])

            #expect(
                try await client.call(.get, "/v1/me", token: tokens.accessToken, headers: [.commonsMinPosition: position]).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/users/\(tokens.accountId)").status == .notFound)
            #expect(try await client.signIn(email).status == .unauthorized)

            // The whole log, as an export would carry it.
            var everything = Data()
            var checkpoint = Checkpoint.start
            while true {
                let page = try await client.runtime.store.readAll(after: checkpoint, limit: 500, filter: .all)
                for event in page.events { everything.append(event.data); everything.append(Data(event.stream.utf8)) }
                if page.checkpoint == checkpoint { break }
                checkpoint = page.checkpoint
            }
            #expect(everything.count > 0)
            // Every file this service and the embedded log keep on disk.
            everything.append(bytes(under: harness.dataDirectory))
            if let logFile = harness.log.sqliteFile { everything.append(bytes(under: (logFile as NSString).deletingLastPathComponent)) }
            // A plain hash of the address would let anyone holding an export test a guess.
            let emailHash = SHA256.hash(data: Data(email.utf8)).map { String(format: "%02x", $0) }.joined()
            for secret in [email, name, "Zebediah", phone, "7700 900123", "TestPhone", emailHash] {
                #expect(everything.range(of: Data(secret.utf8)) == nil, "\(secret) is still readable")
            }
            // The email is free again.
            #expect(
                try await client.call(.post, "/v1/accounts", json: ["email": email, "password": "a long enough phrase", "displayName": "New"]).status
                    == .created)
        }
    }
}

@Suite("account deletion and photos")
struct AccountDeletionPhotoTests {
    /// A made-up blob whose bytes carry `marker`, at its real SHA-256.
    private func blob(_ marker: String) -> (bytes: [UInt8], address: String) {
        let bytes = Array("picture of \(marker) \(UUID())".utf8)
        return (bytes, SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }

    @Test("deleting an account deletes the photos only it uploaded, every size, from the shared store", arguments: Backend.allCases)
    func photosAreGone(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        try await harness.test { client in
            let tokens = try await client.register("photos.\(UUID().uuidString.prefix(6).lowercased())@example.org", name: "Photo Taker")
            let other = UUID()
            let store = client.runtime.blobStore
            let own = [blob("HomeFrontDoorOriginal"), blob("HomeFrontDoorSmall"), blob("HomeFrontDoorMedium")]
            for picture in own { try await store.put(picture.bytes, at: picture.address, contentType: "image/jpeg", owner: tokens.accountId) }
            // The same picture uploaded by someone else too: theirs to keep.
            let shared = blob("StockPhoto")
            try await store.put(shared.bytes, at: shared.address, contentType: "image/jpeg", owner: tokens.accountId)
            try await store.put(shared.bytes, at: shared.address, contentType: "image/jpeg", owner: other)
            #expect(try await store.blobs(after: nil, limit: 10).count == 4)

            #expect(try await client.call(.delete, "/v1/me", token: tokens.accessToken).status == .noContent)

            let left = try await store.blobs(after: nil, limit: 10)
            #expect(left.map(\.address) == [shared.address])
            #expect(left.first?.owners == [other])
            for picture in own { #expect(try await store.get(picture.address) == nil) }
            // On SQLite, the store's file itself no longer holds the bytes (secure_delete).
            if let logFile = harness.log.sqliteFile {
                let raw =
                    try Data(contentsOf: URL(fileURLWithPath: logFile + ".blobs"))
                    + ((try? Data(contentsOf: URL(fileURLWithPath: logFile + ".blobs-wal"))) ?? Data())
                #expect(raw.range(of: Data("HomeFrontDoor".utf8)) == nil)
                #expect(raw.range(of: Data("StockPhoto".utf8)) != nil)
            }
        }
    }
}
