import DonationsService
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import ServiceTestSupport
import Testing

/// Donation history pages are kept under the history's version token
/// (`VersionedAnswerCache`), per person: these tests ask for a page first, so that it is
/// kept, then change what it shows.
@Suite("donation history pages, kept while the history is unchanged")
struct HistoryPageCacheTests {
    private func amounts(_ reply: TestReply) -> [Int?] { reply.items.map { $0["amountMinor"] as? Int } }

    @Test(
        "a page asked for again is the same; a donation and an organisation's new name show at once; each person gets only their own",
        arguments: Backend.allCases)
    func fresh(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            let nets = try await client.organization("nets", minimum: 100)
            let (ada, bob) = (try await client.token(), try await client.token())
            try await client.topUp(ada, 5_000)
            try await client.topUp(bob, 5_000)
            let first = try await client.donate(ada, to: "nets", 500, message: "For the nets")
            let page = try await client.get("/v1/donations", token: ada, after: first.position)
            #expect(amounts(page) == [500])
            #expect(page.items.first?["message"] as? String == "For the nets")
            #expect(try await client.get("/v1/donations", token: ada, after: nil).body == page.body)

            // Another person's page is their own, never the one kept for the first.
            let theirs = try await client.donate(bob, to: "nets", 600)
            #expect(amounts(try await client.get("/v1/donations", token: bob, after: theirs.position)) == [600])
            #expect(amounts(try await client.get("/v1/donations", token: ada, after: nil)) == [500])
            #expect(amounts(try await client.get("/v1/donations", token: try await client.token(), after: nil)) == [])

            let second = try await client.donate(ada, to: "nets", 700)
            #expect(amounts(try await client.get("/v1/donations", token: ada, after: second.position)) == [700, 500])
            #expect(amounts(try await client.get("/v1/donations?limit=1", token: ada, after: nil)) == [700])

            let admin = try await client.admin()
            let current = try #require(try await client.call(.get, "/v1/organizations/\(nets.key)").headers[.eTag])
            let renamed = try await client.call(
                .patch, "/v1/organizations/\(nets.key)", token: admin, json: ["name": "Nets for All"],
                headers: [.ifMatch: current])
            #expect(renamed.status == .ok, "\(renamed.text)")
            let names = try await client.get("/v1/donations", token: ada, after: renamed.position).items
                .map { ($0["organization"] as? [String: Any])?["name"] as? String }
            #expect(names == ["Nets for All", "Nets for All"])
        }
    }

    @Test("a page under an unchanged token is the kept one; Cache-Control: no-cache reads afresh")
    func keptAndFresh() async throws {
        try await DonationsHarness().test { client in
            try await client.organization("nets", minimum: 100)
            let ada = try await client.token()
            try await client.topUp(ada, 5_000)
            let made = try await client.donate(ada, to: "nets", 500)
            #expect(amounts(try await client.get("/v1/donations", token: ada, after: made.position)) == [500])
            // Change the amount behind the triggers' back: the token stays, so the kept page stays.
            try await client.runtime.readModel.pool.write { db in
                let token = try DonationQueries.historyVersion.current(in: db)
                try db.execute(sql: "UPDATE donations SET amount_minor = 501")
                try db.execute(sql: "UPDATE donations_history_version SET token = ?", arguments: [token])
            }
            #expect(amounts(try await client.get("/v1/donations", token: ada, after: nil)) == [500])
            #expect(amounts(try await client.call(.get, "/v1/donations", token: ada, headers: [.cacheControl: "no-cache"])) == [501])
            #expect(amounts(try await client.get("/v1/donations", token: ada, after: nil)) == [501])
        }
    }

    @Test("the history's version token changes with every write to donations and organizations, in the write's transaction, and with no other")
    func token() async throws {
        try await DonationsHarness().test { client in
            try await client.organization("nets", minimum: 100)
            let ada = try await client.token()
            try await client.topUp(ada, 5_000)
            let made = try await client.donate(ada, to: "nets", 500)
            _ = try await client.get("/v1/donations", token: ada, after: made.position)
            let writes = [
                "UPDATE donations SET amount_minor = 600",
                "INSERT INTO donations (donation_id, account_id, organization_id, amount_minor, currency, visibility, donated_at) "
                    + "SELECT 'x', account_id, organization_id, 1, currency, visibility, donated_at FROM donations LIMIT 1",
                "DELETE FROM donations WHERE donation_id = 'x'",
                "UPDATE organizations SET name = 'Renamed'",
            ]
            let failures = try await VersionTokenCheck.failures(
                of: DonationQueries.historyVersion, in: client.runtime.readModel.pool,
                writes: writes,
                unrelated: [
                    "INSERT INTO donations_deleted_accounts (account_id) VALUES ('a-new')",
                    "DELETE FROM donation_posts",
                ])
            #expect(failures.isEmpty)
        }
    }
}
