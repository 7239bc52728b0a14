import Contracts
import DonationsService
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Testing

@Suite("donations: monthly donations")
struct RecurringHTTPTests {
    /// 15 April 2027 and 15 May 2027, 10:00 UTC.
    static let april = DonationsHarness.start.addingTimeInterval(31 * 86_400)
    static let may = april.addingTimeInterval(30 * 86_400)

    @Test(
        "each month's donation is made exactly once, by two replicas at once and after a restart; amount changes and cancel apply",
        arguments: Backend.allCases)
    func monthly(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("monthly-charity", minimum: 500)
            let account = UUID()
            let token = try await client.token(account)
            try await client.topUp(token, 10_000)
            let created = try await client.call(
                .post, "/v1/donations/recurring", token: token,
                json: ["organization": "monthly-charity", "amountMinor": 1_000, "currency": "USD"], key: "monthly-1")
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["startMonth"] as? String == "2027-03")
            _ = try await client.get("/v1/donations/recurring", token: token, after: created.position)

            // Two replicas tick at the same moment.
            let replicaA = DonationsService.scheduler(runtime: client.runtime, clock: client.clock.clock)
            let replicaB = DonationsService.scheduler(runtime: client.runtime, clock: client.clock.clock)
            async let runsA = replicaA.tick()
            async let runsB = replicaB.tick()
            let runs = try await runsA + runsB
            #expect(runs.count == 1, "one replica recorded March")
            // A restarted replica, before its read model has caught up with the run.
            let restarted = DonationsService.scheduler(runtime: client.runtime, clock: client.clock.clock)
            _ = try await restarted.tick()
            #expect(try await donations(of: account, client) == [1_000])
            #expect(try await client.balance(token) == 9_000)

            // From April on, 25.00 a month.
            let changed = try await client.call(.patch, "/v1/donations/recurring/\(id)", token: token, json: ["amountMinor": 2_500])
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(
                try await client.call(.patch, "/v1/donations/recurring/\(id)", token: token, json: ["amountMinor": 100]).status
                    == .unprocessableContent)
            #expect(
                try await client.call(.patch, "/v1/donations/recurring/\(id)", token: try await client.token(), json: ["amountMinor": 900]).status
                    == .notFound)
            client.clock.set(Self.april)
            _ = try await replicaA.tick()
            _ = try await replicaB.tick()
            #expect(try await donations(of: account, client) == [1_000, 2_500])

            let cancelled = try await client.call(.delete, "/v1/donations/recurring/\(id)", token: token)
            #expect(cancelled.status == .noContent)
            client.clock.set(Self.may)
            _ = try await client.get("/v1/donations/recurring", token: token, after: cancelled.position)
            #expect(try await replicaA.tick().isEmpty)
            #expect(try await donations(of: account, client) == [1_000, 2_500])
            let list = try await client.call(.get, "/v1/donations/recurring", token: token)
            #expect(list.items.first?["status"] as? String == "cancelled")
            #expect(list.items.first?["lastRunMonth"] as? String == "2027-04")
        }
    }

    @Test("a month the wallet cannot pay is recorded as such and not retried")
    func insufficientFunds() async throws {
        try await DonationsHarness().test { client in
            try await client.organization("pricey", minimum: 500)
            let account = UUID()
            let token = try await client.token(account)
            let created = try await client.call(
                .post, "/v1/donations/recurring", token: token,
                json: ["organization": "pricey", "amountMinor": 5_000, "currency": "USD"], key: "m")
            _ = try await client.get("/v1/donations/recurring", token: token, after: created.position)
            let scheduler = DonationsService.scheduler(runtime: client.runtime, clock: client.clock.clock)
            let runs = try await scheduler.tick()
            #expect(runs.map(\.outcome) == [.insufficientFunds])
            try await client.topUp(token, 10_000)
            #expect(try await scheduler.tick().isEmpty, "March was run already")
            #expect(try await donations(of: account, client).isEmpty)
            let unverified = try await client.organization("unverified-monthly", verified: false)
            let refused = try await client.call(
                .post, "/v1/donations/recurring", token: token,
                json: ["organization": unverified.key, "amountMinor": 5_000, "currency": "USD"], key: "n")
            #expect(refused.status == .unprocessableContent)
        }
    }

    /// The amounts of the account's donations in the log, oldest first.
    private func donations(of account: UUID, _ client: DonationsHarness.Client) async throws -> [Int] {
        try await client.runtime.store.read(stream: "wallet-\(account.key)")
            .compactMap { try CommonsEvents.catalog.decode($0) as? DonationMade }.map(\.amountMinor)
    }
}
