import AccountsService
import Contracts
import Crypto
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import HTTPTypes
import ServiceKit
import ServiceTestSupport
import Testing

@Suite("accounts over HTTP")
struct AccountsHTTPTests {
    @Test("register, then read my account with the access token", arguments: Backend.allCases)
    func registerAndReadMe(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let tokens = try await client.register("  Ada@Example.org ")
            #expect(tokens.expiresIn == 900)
            let me = try await client.call(.get, "/v1/me", token: tokens.accessToken)
            #expect(me.status == .ok)
            #expect(me.json["email"] as? String == "ada@example.org")
            #expect(me.json["displayName"] as? String == "Ada Lovelace")
            #expect(me.json["role"] as? String == "member")
            #expect(me.headers[.eTag] == "\"1\"")
            let jwks = try await client.call(.get, "/.well-known/jwks.json")
            #expect((jwks.json["keys"] as? [[String: Any]])?.first?["crv"] as? String == "Ed25519")
        }
    }

    @Test("a taken email gets 409 however it is spelled; bad fields get 422 listing each", arguments: Backend.allCases)
    func registrationErrors(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            _ = try await client.register("grace@example.org")
            let again = try await client.call(
                .post, "/v1/accounts", json: ["email": "GRACE@example.org ", "password": "another long phrase", "displayName": "G"])
            #expect(again.status == .conflict)
            let bad = try await client.call(.post, "/v1/accounts", json: ["email": "nope", "password": "password123", "displayName": ""])
            #expect(bad.status == .unprocessableContent)
            #expect(Set((bad.json["errors"] as? [String: Any] ?? [:]).keys) == ["email", "password", "displayName"])
            let missing = try await client.call(.post, "/v1/accounts", json: ["email": "x@example.org"])
            #expect(missing.status == .badRequest)
        }
    }

    @Test("an address reserved under a plain SHA-256, before reservations were keyed, stays taken and still signs in", arguments: Backend.allCases)
    func unkeyedReservationsStillCount(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let tokens = try await client.register("keyed@example.org")
            let old = "reserved.before@example.org"
            let unkeyed = "email-" + SHA256.hash(data: Data(old.utf8)).map { String(format: "%02x", $0) }.joined()
            _ = try await client.runtime.store.append(
                to: unkeyed, expected: .noStream,
                events: [
                    try EventCatalog.encode(EmailReserved(accountId: tokens.accountId))
                ])
            let again = try await client.call(.post, "/v1/accounts", json: ["email": old, "password": "another long phrase", "displayName": "Other"])
            #expect(again.status == .conflict)
            #expect(try await client.signIn(old).status == .created)
        }
    }

    @Test("an unknown email and a wrong password get the same answer; the right one signs in", arguments: Backend.allCases)
    func signIn(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            _ = try await client.register("alan@example.org")
            let wrong = try await client.signIn("alan@example.org", password: "not the password")
            let unknown = try await client.signIn("nobody@example.org", password: "not the password")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.json["detail"] as? String == unknown.json["detail"] as? String)
            let right = try await client.signIn("ALAN@example.org")
            #expect(right.status == .created)
            #expect(right.headers[.commonsPosition] != nil)
        }
    }

    @Test("after five failed sign-ins even the right password waits, with Retry-After")
    func lockout() async throws {
        try await AccountsHarness().test { client in
            _ = try await client.register("locked@example.org")
            for _ in 0..<5 { #expect(try await client.signIn("locked@example.org", password: "wrong wrong wrong").status == .unauthorized) }
            let locked = try await client.signIn("locked@example.org")
            #expect(locked.status == .tooManyRequests)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    @Test("twenty wrong passwords from one network do not stop the address's owner, on another network, signing in at once")
    func lockoutPerNetwork() async throws {
        // The clock stands still: the stranger's lock cannot run out however slow the machine.
        try await AccountsHarness(extra: ["COMMONS_TRUSTED_PROXIES": "local"], clock: ManualClock().clock).test { client in
            _ = try await client.register("owner@example.org")
            func signIn(_ password: String, from address: String) async throws -> HTTPResponse.Status {
                try await client.call(
                    .post, "/v1/sessions", json: ["email": "owner@example.org", "password": password],
                    headers: [HTTPField.Name("X-Forwarded-For")!: address]
                ).status
            }
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<20 { statuses.append(try await signIn("wrong wrong wrong", from: "203.0.113.\(n + 1)")) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized } && statuses.last == .tooManyRequests, "\(statuses)")
            #expect(try await signIn("a long enough phrase", from: "203.0.113.200") == .tooManyRequests, "the stranger's network stays locked")
            #expect(try await signIn("a long enough phrase", from: "198.51.100.20") == .created, "the owner on another network")
        }
    }

    @Test(
        "an address no account has is locked out exactly like one that has: the answers tell nobody which addresses exist",
        arguments: Backend.allCases)
    func noEnumerationByLockout(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            _ = try await client.register("known@example.org")
            for address in ["known@example.org", "unknown@example.org"] {
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<6 { statuses.append(try await client.signIn(address, password: "wrong wrong wrong").status) }
                #expect(statuses == Array(repeating: .unauthorized, count: 5) + [.tooManyRequests], "\(address): \(statuses)")
            }
            // The log names the throttled addresses by a keyed hash only.
            let events = try await settledEvents(of: client.runtime.store)
            let everything = events.map { $0.stream + String(decoding: $0.data, as: UTF8.self) }.joined()
            let plainHash = SHA256.hash(data: Data("unknown@example.org".utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(!everything.contains("unknown@example.org") && !everything.contains(plainHash))
            #expect(everything.contains("signinthrottle-"))
        }
    }

    @Test("sign-in, registration and reset each allow 10 requests a minute per client address, apart from the general limit and each other")
    func credentialRouteLimits() async throws {
        try await AccountsHarness(extra: ["COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE": "10"]).test { client in
            // Each to another address, so that no address's own lockout is what answers; all at
            // once, so that however slow the machine, the budget has not refilled in between.
            let signIns = try await withThrowingTaskGroup(of: AccountsHarness.Reply.self) { group in
                for n in 0..<12 { group.addTask { try await client.signIn("nobody\(n)@example.org", password: "not the password") } }
                return try await group.reduce(into: [AccountsHarness.Reply]()) { $0.append($1) }
            }
            #expect(signIns.filter { $0.status == .unauthorized }.count == 10, "\(signIns.map(\.status))")
            let limited = signIns.filter { $0.status == .tooManyRequests }
            #expect(limited.count == 2, "\(signIns.map(\.status))")
            #expect(limited.allSatisfy { Int($0.headers[.retryAfter] ?? "") ?? 0 > 0 })
            // Registration has a budget of its own, and other routes the general one.
            #expect(
                try await client.call(
                    .post, "/v1/accounts",
                    json: [
                        "email": "new@example.org", "password": "a long enough phrase",
                        "displayName": "New",
                    ]
                ).status == .created)
            #expect(try await client.call(.get, "/.well-known/jwks.json").status == .ok)
        }
    }

    @Test("20 wrong passwords at once: only the five free attempts reach the password check, the rest wait", arguments: Backend.allCases)
    func concurrentWrongPasswords(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            _ = try await client.register("burst@example.org")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await client.signIn("burst@example.org", password: "wrong wrong wrong").status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15, "\(statuses)")
        }
    }

    @Test(
        "refresh rotates the token; the token just replaced gets 409 (a race); reusing an older one ends the whole session",
        arguments: Backend.allCases)
    func refreshRotation(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let tokens = try await client.register("hopper@example.org")
            let rotated = try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": tokens.refreshToken])
            #expect(rotated.status == .ok)
            let first = try rotated.decode(AccountsHarness.Tokens.self)
            #expect(first.refreshToken != tokens.refreshToken)
            #expect(first.sessionId == tokens.sessionId)
            // A second request of the same app refreshing at the same moment: told, not punished.
            let raced = try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": tokens.refreshToken])
            #expect(raced.status == .conflict)
            #expect(raced.json["type"] as? String == "https://commons.example/problems/refresh-superseded")
            let again = try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": first.refreshToken])
            #expect(again.status == .ok, "the session lives on after the race")
            let next = try again.decode(AccountsHarness.Tokens.self)
            // A token two rotations old: someone has copied it.
            let reuse = try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": tokens.refreshToken])
            #expect(reuse.status == .unauthorized)
            let position = try #require(reuse.headers[.commonsPosition], "the 401 tells where the session ended")
            let afterReuse = try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": next.refreshToken])
            #expect(afterReuse.status == .unauthorized)
            let me = try await client.call(.get, "/v1/me", token: next.accessToken, headers: [.commonsMinPosition: position])
            #expect(me.status == .unauthorized)
            #expect(try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": "junk"]).status == .unauthorized)
        }
    }

    @Test(
        "past COMMONS_SESSIONS_PER_ACCOUNT live sessions a sign-in ends the oldest: listed no more, its tokens refused", arguments: Backend.allCases)
    func sessionCap(backend: Backend) async throws {
        try await AccountsHarness(backend: backend, extra: ["COMMONS_SESSIONS_PER_ACCOUNT": "3"]).test { client in
            let oldest = try await client.register("many@example.org")
            var newest = oldest
            var position = ""
            for _ in 0..<3 {
                let signedIn = try await client.signIn("many@example.org")
                #expect(signedIn.status == .created)
                newest = try signedIn.decode(AccountsHarness.Tokens.self)
                position = try #require(signedIn.headers[.commonsPosition])
                // Each sign-in counts the ones before it once the read model holds them.
                _ = try await client.call(.get, "/v1/sessions", token: newest.accessToken, headers: [.commonsMinPosition: position])
            }
            let list = try await client.call(.get, "/v1/sessions", token: newest.accessToken, headers: [.commonsMinPosition: position])
            let ids = (list.json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String)?.lowercased() }
            #expect(ids.count == 3)
            #expect(!ids.contains(oldest.sessionId.uuidString.lowercased()))
            #expect(
                try await client.call(.get, "/v1/me", token: oldest.accessToken, headers: [.commonsMinPosition: position]).status == .unauthorized)
            #expect(try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": oldest.refreshToken]).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/me", token: newest.accessToken).status == .ok)
        }
    }

    @Test(
        "a cap on live sessions that is not a whole number from 1 to 10,000 stops the service, naming the setting", arguments: ["0", "many", "10001"])
    func badSessionCap(value: String) throws {
        #expect {
            _ = try AccountsService.definition(environment: EnvironmentVariables(["COMMONS_SESSIONS_PER_ACCOUNT": value]))
        } throws: { error in
            (error as? ConfigurationError)?.key == "COMMONS_SESSIONS_PER_ACCOUNT"
        }
    }

    @Test("sessions: list mine, sign out, and never touch someone else's", arguments: Backend.allCases)
    func sessions(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let first = try await client.register("lin@example.org")
            let signedIn = try await client.signIn("lin@example.org")
            let second = try signedIn.decode(AccountsHarness.Tokens.self)
            let other = try await client.register("other@example.org")
            let position = try #require(signedIn.headers[.commonsPosition])
            let list = try await client.call(.get, "/v1/sessions", token: first.accessToken, headers: [.commonsMinPosition: position])
            let items = list.json["items"] as? [[String: Any]] ?? []
            #expect(items.count == 2)
            #expect(items.filter { $0["current"] as? Bool == true }.count == 1)
            #expect(items.contains { $0["device"] as? String == "TestPhone/1.0" })

            #expect(try await client.call(.delete, "/v1/sessions/\(other.sessionId)", token: first.accessToken).status == .notFound)
            #expect(try await client.call(.get, "/v1/me", token: other.accessToken).status == .ok)

            #expect(try await client.call(.delete, "/v1/sessions/\(second.sessionId)", token: first.accessToken).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: second.accessToken).status == .unauthorized)
            #expect(try await client.call(.delete, "/v1/sessions/current", token: first.accessToken).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: first.accessToken).status == .unauthorized)
        }
    }

    @Test("profile changes are validated, versioned, and public profiles show nothing private", arguments: Backend.allCases)
    func profile(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let tokens = try await client.register("mary@example.org", name: "Mary")
            let bad = try await client.call(
                .patch, "/v1/me", token: tokens.accessToken, json: ["phone": "call me", "homeLocation": ["lat": 91, "lon": 0]])
            #expect(bad.status == .unprocessableContent)
            #expect(Set((bad.json["errors"] as? [String: Any] ?? [:]).keys) == ["phone", "homeLocation.lat"])
            let changed = try await client.call(
                .patch, "/v1/me", token: tokens.accessToken,
                json: ["displayName": "Mary S.", "phone": "+44 20 7946 0000", "homeLocation": ["lat": 51.5, "lon": -0.12]],
                headers: [.ifMatch: "\"1\""])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] == "\"2\"")
            #expect(changed.json["phone"] as? String == "+44 20 7946 0000")
            let stale = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["displayName": "M"], headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            let cleared = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["phone": NSNull()])
            #expect(cleared.json["phone"] == nil)

            // An avatar is a picture I uploaded myself, never someone else's.
            let theirs = try await StoredImages.record(by: UUID(), in: client.runtime.store)
            let taken = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["avatarImageId": theirs.uuidString])
            #expect(taken.status == .unprocessableContent)
            #expect(Set((taken.json["errors"] as? [String: Any] ?? [:]).keys) == ["avatarImageId"])
            let mine = try await StoredImages.record(by: tokens.accountId, in: client.runtime.store)
            let avatar = try await client.call(.patch, "/v1/me", token: tokens.accessToken, json: ["avatarImageId": mine.uuidString])
            #expect(avatar.status == .ok, "\(avatar.text)")
            #expect((avatar.json["avatarImageId"] as? String)?.lowercased() == mine.uuidString.lowercased())

            let publicProfile = try await client.call(.get, "/v1/users/\(tokens.accountId)")
            #expect(publicProfile.status == .ok)
            #expect(publicProfile.json["displayName"] as? String == "Mary S.")
            #expect(!publicProfile.text.contains("mary@example.org"))
            #expect(!publicProfile.text.contains("7946"))
            #expect(!publicProfile.text.contains("51.5"))
            #expect(try await client.call(.get, "/v1/users/\(UUID())").status == .notFound)
            #expect(try await client.call(.get, "/v1/me").status == .unauthorized)
        }
    }

    @Test("changing the password ends my other sessions and keeps this one", arguments: Backend.allCases)
    func changePassword(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let here = try await client.register("ken@example.org")
            let there = try await client.signIn("ken@example.org").decode(AccountsHarness.Tokens.self)
            let wrong = try await client.call(
                .put, "/v1/me/password", token: here.accessToken, json: ["currentPassword": "nope nope nope", "newPassword": "a brand new phrase"])
            #expect(wrong.status == .unprocessableContent)
            let changed = try await client.call(
                .put, "/v1/me/password", token: here.accessToken,
                json: ["currentPassword": "a long enough phrase", "newPassword": "a brand new phrase"])
            #expect(changed.status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: there.accessToken).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/me", token: here.accessToken).status == .ok)
            #expect(try await client.signIn("ken@example.org").status == .unauthorized)
            #expect(try await client.signIn("ken@example.org", password: "a brand new phrase").status == .created)
        }
    }

    @Test("changing the password ends the sessions of the last three months and reads none older", arguments: Backend.allCases)
    func changePasswordLeavesSessionsPastTheirLife(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let store = client.runtime.store
            let here = try await client.register("lin@example.org")
            let there = try await client.signIn("lin@example.org").decode(AccountsHarness.Tokens.self)
            // A session of the same account opened 100 days ago, never ended: a copy of this
            // session's start, moved back in time and imported with the time it was recorded.
            let longAgo = Date().addingTimeInterval(-100 * 86_400)
            let old = UUID()
            let first = try #require(try await store.read(stream: "session-\(here.sessionId.uuidString.lowercased())").first)
            let started = try #require(try CommonsEvents.catalog.decode(first) as? SessionStarted)
            let oldStart = SessionStarted(
                sessionId: old, accountId: here.accountId, device: try #require(started.device),
                refreshTokenHash: "old", startedAt: longAgo)
            let index = "accountsessions-\(here.accountId.uuidString.lowercased())"
            let indexVersion = try await store.read(stream: index).count
            func recorded(_ event: NewEvent, stream: String, version: Int) -> RecordedEvent {
                RecordedEvent(
                    checkpoint: .start, stream: stream, version: Int64(version), id: event.id, type: event.type,
                    schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata, recordedAt: longAgo)
            }
            _ = try await store.importEvents([
                recorded(try EventCatalog.encode(oldStart), stream: "session-\(old.uuidString.lowercased())", version: 1),
                recorded(try EventCatalog.encode(SessionOpened(sessionId: old)), stream: index, version: indexVersion + 1),
            ])

            let changed = try await client.call(
                .put, "/v1/me/password", token: here.accessToken,
                json: ["currentPassword": "a long enough phrase", "newPassword": "a brand new phrase"])
            #expect(changed.status == .noContent)
            #expect(try await store.read(stream: "session-\(there.sessionId.uuidString.lowercased())").last?.type == SessionRevoked.eventType)
            #expect(try await store.read(stream: "session-\(here.sessionId.uuidString.lowercased())").last?.type != SessionRevoked.eventType)
            #expect(
                try await store.read(stream: "session-\(old.uuidString.lowercased())").map(\.type) == [SessionStarted.eventType],
                "ended by itself long ago")
        }
    }

    @Test("ending a session answers 202, not 204, while this service cannot read the write yet; the session is refused once it has")
    func endingSessionNotYetInEffect() async throws {
        // A deadline of 2 s: the answer goes after waiting 1 s for the projection.
        try await AccountsHarness(extra: ["COMMONS_REQUEST_DEADLINE_SECONDS": "2"]).test { client in
            let here = try await client.register("grace@example.org")
            let there = try await client.signIn("grace@example.org").decode(AccountsHarness.Tokens.self)
            // Another connection holds the read model's write lock, so the projection cannot apply the write.
            // It waits for the lock: a projection may still be committing the sign-in.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            configuration.busyMode = .timeout(10)
            let blocker = try DatabaseQueue(path: client.runtime.readModel.path, configuration: configuration)
            try await blocker.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            let ended = try await client.call(.delete, "/v1/sessions/\(there.sessionId)", token: here.accessToken)
            #expect(ended.status == .accepted)
            #expect(try JSONSerialization.jsonObject(with: ended.body) as? [String: String] != nil)
            let position = try #require(ended.headers[.commonsPosition])
            // What the 202 says: the ended session still works here until the write is read.
            #expect(try await client.call(.get, "/v1/me", token: there.accessToken).status == .ok)
            try await blocker.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
            #expect(try await client.call(.get, "/v1/me", token: there.accessToken, headers: [.commonsMinPosition: position]).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/me", token: here.accessToken).status == .ok)
        }
    }

    @Test("a password reset answers 202 for any email and mails a single-use code", arguments: Backend.allCases)
    func passwordReset(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        try await harness.test { client in
            let tokens = try await client.register("rosalind@example.org")
            #expect(try await client.call(.post, "/v1/password-resets", json: ["email": "nobody@example.org"]).status == .accepted)
            #expect(try await client.call(.post, "/v1/password-resets", json: ["email": "rosalind@example.org"]).status == .accepted)
            let outbox = URL(fileURLWithPath: harness.dataDirectory).appendingPathComponent("outbox")
            let files = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
            #expect(files.count == 1)
            let mail = try String(contentsOf: outbox.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(mail.contains("To: rosalind@example.org"))
            let code = try #require(mail.split(separator: "\n").first { $0.contains(".") && !$0.contains(" ") }.map(String.init))

            let weak = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": code, "newPassword": "short"])
            #expect(weak.status == .unprocessableContent)
            let confirmed = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": code, "newPassword": "reset to this phrase"])
            #expect(confirmed.status == .noContent)
            let reused = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": code, "newPassword": "and again this one"])
            #expect(reused.status == .badRequest)
            #expect(try await client.call(.get, "/v1/me", token: tokens.accessToken).status == .unauthorized)
            #expect(try await client.signIn("rosalind@example.org", password: "reset to this phrase").status == .created)
        }
    }

    @Test("a reset code asked for before the password changed, by its owner or with another code, no longer works", arguments: Backend.allCases)
    func resetCodeEndsWithPasswordChange(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        try await harness.test { client in
            let tokens = try await client.register("grace@example.org")
            let outbox = URL(fileURLWithPath: harness.dataDirectory).appendingPathComponent("outbox")
            func requestCode() async throws -> String {
                let before = Set((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? [])
                #expect(try await client.call(.post, "/v1/password-resets", json: ["email": "grace@example.org"]).status == .accepted)
                let file = try #require(Set(try FileManager.default.contentsOfDirectory(atPath: outbox.path)).subtracting(before).first)
                let mail = try String(contentsOf: outbox.appendingPathComponent(file), encoding: .utf8)
                return try #require(mail.split(separator: "\n").first { $0.contains(".") && !$0.contains(" ") }.map(String.init))
            }
            let (first, second) = (try await requestCode(), try await requestCode())
            let changed = try await client.call(
                .put, "/v1/me/password", token: tokens.accessToken,
                json: ["currentPassword": "a long enough phrase", "newPassword": "a brand new phrase"])
            #expect(changed.status == .noContent)
            let late = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": first, "newPassword": "someone else's phrase"])
            #expect(late.status == .badRequest, "a code from before the change")
            #expect(try await client.signIn("grace@example.org", password: "a brand new phrase").status == .created)

            let third = try await requestCode()
            let used = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": third, "newPassword": "reset to this phrase"])
            #expect(used.status == .noContent)
            let other = try await client.call(.post, "/v1/password-resets/confirm", json: ["token": second, "newPassword": "and again this one"])
            #expect(other.status == .badRequest, "a code from before another code was used")
            #expect(try await client.signIn("grace@example.org", password: "reset to this phrase").status == .created)
        }
    }

    @Test("one address is mailed at most three reset codes an hour; more requests answer 202 alike and send nothing", arguments: Backend.allCases)
    func resetMailCap(backend: Backend) async throws {
        let harness = try await AccountsHarness(backend: backend)
        try await harness.test { client in
            _ = try await client.register("ada@example.org")
            _ = try await client.register("alan@example.org")
            let outbox = URL(fileURLWithPath: harness.dataDirectory).appendingPathComponent("outbox")
            func mails(to address: String) -> Int {
                ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).filter { name in
                    (try? String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8))?.contains("To: \(address)") == true
                }.count
            }
            for _ in 0..<5 {
                #expect(try await client.call(.post, "/v1/password-resets", json: ["email": "ada@example.org"]).status == .accepted)
            }
            #expect(mails(to: "ada@example.org") == 3)
            #expect(try await client.call(.post, "/v1/password-resets", json: ["email": "alan@example.org"]).status == .accepted)
            #expect(mails(to: "alan@example.org") == 1, "another address is not held back")
        }
    }

    @Test("registering makes a member, whatever the address; the old bootstrap-admin setting stops the service with one line")
    func noAdminByRegistering() async throws {
        try await AccountsHarness().test { client in
            let root = try await client.register("root@example.org")
            #expect(try await client.call(.get, "/v1/me", token: root.accessToken).json["role"] as? String == "member")
        }
        let environment = EnvironmentVariables(["COMMONS_DATA_DIR": NSTemporaryDirectory(), "COMMONS_BOOTSTRAP_ADMIN_EMAIL": "root@example.org"])
        let error = try #require(throws: ConfigurationError.self) { try AccountsService.definition(environment: environment) }
        #expect(error.key == "COMMONS_BOOTSTRAP_ADMIN_EMAIL")
        #expect(error.problem.contains("commons accounts create-admin"))
    }

    @Test("every route is in the OpenAPI document, and every documented route exists")
    func openAPI() async throws {
        try await AccountsHarness().test { client in
            let documented = try AccountsService.definition(environment: EnvironmentVariables(["COMMONS_DATA_DIR": NSTemporaryDirectory()])).openAPI
                .documentedRoutes
            #expect(Set(client.routes) == documented)
        }
    }

    @Test("one account can never read or change another's private data", arguments: Backend.allCases)
    func authorization(backend: Backend) async throws {
        try await AccountsHarness(backend: backend).test { client in
            let alice = try await client.register("alice@example.org", name: "Alice")
            let bob = try await client.register("bob@example.org", name: "Bob")
            // My account is always mine: there is no way to name another's.
            let bobsView = try await client.call(.get, "/v1/me", token: bob.accessToken)
            #expect(bobsView.json["email"] as? String == "bob@example.org")
            #expect(!bobsView.text.contains("alice"))
            // Another's sessions can be neither listed nor ended.
            let bobsSessions = try await client.call(.get, "/v1/sessions", token: bob.accessToken)
            #expect(!bobsSessions.text.contains(alice.sessionId.uuidString.lowercased()))
            #expect(try await client.call(.delete, "/v1/sessions/\(alice.sessionId)", token: bob.accessToken).status == .notFound)
            // Another's refresh token is useless without its secret.
            let forged = "\(alice.sessionId.uuidString.lowercased()).\(bob.refreshToken.split(separator: ".")[1])"
            #expect(try await client.call(.post, "/v1/sessions/refresh", json: ["refreshToken": forged]).status == .unauthorized)
            // Alice is untouched by all of it.
            #expect(try await client.call(.get, "/v1/me", token: alice.accessToken).json["displayName"] as? String == "Alice")
            // The public profile of another shows nothing private.
            let profile = try await client.call(.get, "/v1/users/\(alice.accountId)", token: bob.accessToken)
            #expect(Set(profile.json.keys) == ["id", "displayName", "memberSince"])
        }
    }
}
