import AccountsService
import EventLog
import EventLogTestSupport
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

/// `/v1/admin/log`: the operator console's view of the log, served by accounts.
@Suite("the event-log browser")
struct EventLogBrowserTests {
    @Test(
        "admins page through the log by category, read a stream and an event; personal data stays sealed, and shows as gone once its owner is deleted"
    )
    func browse() async throws {
        let harness = try await AccountsHarness()
        try await harness.test { client in
            let ada = try await client.register("ada@example.org")
            _ = try await AccountsAdministration.makeAdmin(
                email: "boss@example.org", password: "a long enough phrase", displayName: "Boss", store: harness.log.store,
                environment: harness.environment)
            let admin = try await Self.adminToken(client)
            let stream = "account-\(ada.accountId.uuidString.lowercased())"

            #expect(try await client.call(.get, "/v1/admin/log/events").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/admin/log/events", token: ada.accessToken).status == .forbidden)
            #expect(try await client.call(.get, "/v1/admin/log/streams/\(stream)", token: ada.accessToken).status == .forbidden)

            // By category, in log order, a page at a time.
            var seen: [[String: Any]] = []
            var after: String?
            repeat {
                let page = try await client.call(
                    .get, "/v1/admin/log/events?category=account&limit=1" + (after.map { "&after=\($0)" } ?? ""),
                    token: admin)
                #expect(page.status == .ok)
                let events = page.json["events"] as? [[String: Any]] ?? []
                #expect(events.count <= 1)
                seen += events.compactMap { $0["event"] as? [String: Any] }
                after = page.json["more"] as? Bool == true ? page.json["next"] as? String : nil
            } while after != nil
            #expect(seen.allSatisfy { ($0["stream"] as? String)?.hasPrefix("account-") == true })
            #expect(Set(seen.compactMap { $0["stream"] as? String }).isSuperset(of: [stream]))
            let positions = seen.compactMap { $0["position"] as? Int }
            #expect(positions == positions.sorted() && positions.count == seen.count)

            // One stream's history, and the registration with its personal data sealed.
            let history = try await client.call(.get, "/v1/admin/log/streams/\(stream)", token: admin)
            #expect(history.status == .ok)
            let events = history.json["events"] as? [[String: Any]] ?? []
            let registered = try #require(events.first)
            let event = try #require(registered["event"] as? [String: Any])
            #expect(event["type"] as? String == "AccountRegistered")
            #expect(event["version"] as? Int == 1)
            let body = try #require(event["data"] as? [String: Any])
            #expect(!String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self).contains("ada@example.org"))
            let keyId = ada.accountId.uuidString.lowercased()
            #expect(registered["personalData"] as? [[String: String]] == [["keyId": keyId, "state": "sealed"]])
            let id = try #require(event["id"] as? String)
            let one = try await client.call(.get, "/v1/admin/log/events/\(id)", token: admin)
            #expect(one.status == .ok)
            #expect((one.json["event"] as? [String: Any])?["stream"] as? String == stream)

            // Deleted: the same event, its key gone for good.
            #expect(try await client.call(.delete, "/v1/me", token: ada.accessToken).status == .noContent)
            let afterDeletion = try await client.call(.get, "/v1/admin/log/events/\(id)", token: admin)
            #expect(afterDeletion.json["personalData"] as? [[String: String]] == [["keyId": keyId, "state": "gone"]])

            // Bad queries name their fields; unknown things are 404.
            let bad = try await client.call(.get, "/v1/admin/log/events?after=yesterday&limit=0", token: admin)
            #expect(bad.status == .badRequest)
            #expect(bad.fieldErrors == ["after", "limit"])
            #expect(try await client.call(.get, "/v1/admin/log/streams/\(stream)?from=0", token: admin).status == .badRequest)
            #expect(try await client.call(.get, "/v1/admin/log/streams/account-nobody", token: admin).status == .notFound)
            #expect(try await client.call(.get, "/v1/admin/log/events/\(UUID())", token: admin).status == .notFound)
        }
    }

    /// Signs the administrator in, again until the token carries the role (the promotion is
    /// applied by the sessions projection a moment after it is written).
    @Test("an administrator removed with `remove-admin` loses the role at once: the tokens held are refused, a new sign-in is a member's")
    func removedAdmin() async throws {
        let harness = try await AccountsHarness()
        try await harness.test { client in
            _ = try await AccountsAdministration.makeAdmin(
                email: "boss@example.org", password: "a long enough phrase", displayName: "Boss", store: harness.log.store,
                environment: harness.environment)
            let admin = try await Self.adminToken(client)
            _ = try await AccountsAdministration.removeAdmin(email: "Boss@Example.org", store: harness.log.store, environment: harness.environment)
            try await waitFor("the ended session's token to be refused") {
                try await client.call(.get, "/v1/admin/log/events?limit=1", token: admin).status == .unauthorized
            }
            let member = try await client.signIn("boss@example.org").decode(AccountsHarness.Tokens.self).accessToken
            #expect(try await client.call(.get, "/v1/admin/log/events?limit=1", token: member).status == .forbidden)
            #expect(try await client.call(.get, "/v1/me", token: member).json["role"] as? String == "member")
            await #expect(throws: AdministrationError.self) {
                try await AccountsAdministration.removeAdmin(email: "nobody@example.org", store: harness.log.store, environment: harness.environment)
            }
        }
    }

    static func adminToken(_ client: AccountsHarness.Client) async throws -> String {
        for _ in 0..<100 {
            let token = try await client.signIn("boss@example.org").decode(AccountsHarness.Tokens.self).accessToken
            if try await client.call(.get, "/v1/admin/log/events?limit=1", token: token).status == .ok { return token }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("the administrator's token never carried the role")
    }
}
