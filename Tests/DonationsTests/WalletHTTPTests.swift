import DonationsService
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Testing

@Suite("donations: wallet and donations over HTTP")
struct WalletHTTPTests {
    @Test("a top-up with the good card adds money once, however often it is retried; the declined card adds nothing", arguments: Backend.allCases)
    func topUps(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            let token = try await client.token()
            let body: [String: Any] = ["amountMinor": 5_000, "currency": "USD", "cardNumber": DonationsHarness.Client.goodCard]
            let first = try await client.call(.post, "/v1/wallet/top-ups", token: token, json: body, key: "top-up-1")
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["balanceMinor"] as? Int == 5_000)
            let retry = try await client.call(.post, "/v1/wallet/top-ups", token: token, json: body, key: "top-up-1")
            #expect(retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await client.balance(token) == 5_000)

            let declined = try await client.call(
                .post, "/v1/wallet/top-ups", token: token,
                json: ["amountMinor": 5_000, "currency": "USD", "cardNumber": DonationsHarness.Client.declinedCard], key: "top-up-2")
            #expect(declined.status.code == 402)
            #expect(declined.json["type"] as? String == "https://commons.example/problems/card-declined")
            #expect(try await client.balance(token) == 5_000)

            let invalid = try await client.call(
                .post, "/v1/wallet/top-ups", token: token,
                json: ["amountMinor": 5, "currency": "usd", "cardNumber": "1234"], key: "top-up-3")
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.fieldErrors == ["amountMinor", "currency", "cardNumber"])
            let noKey = try await client.call(.post, "/v1/wallet/top-ups", token: token, json: body)
            #expect(noKey.status == .badRequest)
            #expect(noKey.fieldErrors == ["Idempotency-Key"])

            let wallet = try await client.call(.get, "/v1/wallet", token: token)
            #expect((wallet.json["entries"] as? [Any])?.count == 1)
            #expect(!wallet.text.contains("4242"), "the card number is never shown")
        }
    }

    @Test("donation rules: below the minimum 422, more than the balance 409 with it, unverified 422, wrong currency 422", arguments: Backend.allCases)
    func donationRules(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("nets", minimum: 500)
            try await client.organization("unchecked", verified: false)
            let token = try await client.token()
            try await client.topUp(token, 1_000)

            let small = try await client.donate(token, to: "nets", 499)
            #expect(small.status == .unprocessableContent)
            #expect(small.fieldErrors == ["amountMinor"])
            let large = try await client.donate(token, to: "nets", 1_001)
            #expect(large.status == .conflict)
            #expect((large.json["extensions"] as? [String: String])?["balanceMinor"] == "1000")
            let unverified = try await client.donate(token, to: "unchecked", 600)
            #expect(unverified.status == .unprocessableContent)
            #expect(unverified.fieldErrors == ["organization"])
            let euros = try await client.donate(token, to: "nets", 600, currency: "EUR")
            #expect(euros.status == .unprocessableContent)
            #expect(euros.fieldErrors == ["currency"])
            let unknown = try await client.donate(token, to: "no-such-charity", 600)
            #expect(unknown.status == .unprocessableContent)
            let malformed = try await client.call(
                .post, "/v1/donations", token: token, json: ["organization": "nets", "amountMinor": -1, "currency": "US"], key: "m")
            #expect(malformed.status == .unprocessableContent)
            #expect(malformed.fieldErrors == ["amountMinor", "currency"])
            #expect(
                try await client.call(.post, "/v1/donations", token: token, json: ["organization": "nets", "amountMinor": 600, "currency": "USD"])
                    .status == .badRequest)

            let made = try await client.donate(token, to: "nets", 600, message: "For the nets")
            #expect(made.status == .created, "\(made.text)")
            #expect(made.json["balanceMinor"] as? Int == 400)
            #expect(try await client.balance(token) == 400)
        }
    }

    @Test("without a configured card processor, a top-up is refused with a 503 problem and the wallet stays empty")
    func noProcessor() async throws {
        try await DonationsHarness(payments: "").test { client in
            let token = try await client.token()
            let refused = try await client.call(
                .post, "/v1/wallet/top-ups", token: token,
                json: ["amountMinor": 5_000, "currency": "USD", "cardNumber": DonationsHarness.Client.goodCard], key: "top-up-1")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.json["type"] as? String == "https://commons.example/problems/payments-not-configured")
            #expect(try await client.balance(token) == 0)
        }
    }

    @Test("COMMONS_PAYMENTS: unset is no processor, simulated the simulated one, anything else stops the service")
    func paymentsSetting() throws {
        #expect(try PaymentsSetting.provider(from: EnvironmentVariables([:])) == nil)
        #expect(try PaymentsSetting.provider(from: EnvironmentVariables(["COMMONS_PAYMENTS": "simulated"]))?.isSimulated == true)
        #expect(throws: ConfigurationError.self) {
            try DonationsService.definition(environment: EnvironmentVariables(["COMMONS_PAYMENTS": "stripe"]))
        }
    }

    @Test("donations made in the same second are listed newest first, page by page, in the order they were made", arguments: Backend.allCases)
    func sameSecondHistory(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("nets")
            let owner = try await client.token()
            try await client.topUp(owner, 5_000)
            // The harness's clock stands still: every donation carries the same time.
            var position: String?
            for amount in [500, 600, 700, 800] {
                let made = try await client.donate(owner, to: "nets", amount)
                #expect(made.status == .created)
                position = made.position
            }
            let whole = try await client.get("/v1/donations", token: owner, after: position)
            #expect(whole.items.map { $0["amountMinor"] as? Int } == [800, 700, 600, 500])
            var paged: [Int?] = []
            var cursor: String?
            repeat {
                let page = try await client.get("/v1/donations?limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""), token: owner, after: nil)
                paged += page.items.map { $0["amountMinor"] as? Int }
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil && paged.count < 10
            #expect(paged == [800, 700, 600, 500])
        }
    }

    @Test("only the owner sees a wallet, a history, a donation and its receipt; others get 404", arguments: Backend.allCases)
    func ownerOnly(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("nets")
            let owner = try await client.token(), other = try await client.token()
            try await client.topUp(owner, 2_000)
            let made = try await client.donate(owner, to: "nets", 700, message: "In memory of Grandma")
            let id = try #require((made.json["donation"] as? [String: Any])?["id"] as? String)

            let mine = try await client.get("/v1/donations/\(id)", token: owner, after: made.position)
            #expect(mine.status == .ok)
            #expect(mine.json["message"] as? String == "In memory of Grandma")
            let receipt = try await client.call(.get, "/v1/donations/\(id)/receipt", token: owner)
            #expect(receipt.status == .ok)
            #expect(receipt.json["amountMinor"] as? Int == 700)
            #expect((receipt.json["receiptNumber"] as? String)?.hasPrefix("CMN-2027-") == true)
            // The harness runs the simulated processor: the receipt must not pass for a real one.
            #expect(receipt.json["simulated"] as? Bool == true)
            #expect((receipt.json["statement"] as? String)?.hasPrefix("SIMULATED:") == true, "\(receipt.text)")

            #expect(try await client.call(.get, "/v1/donations/\(id)", token: other).status == .notFound)
            #expect(try await client.call(.get, "/v1/donations/\(id)/receipt", token: other).status == .notFound)
            #expect(try await client.call(.get, "/v1/donations", token: other).items.isEmpty)
            #expect(try await client.balance(other) == 0)
            #expect(try await client.call(.get, "/v1/donations/\(id)").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/wallet").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/donations", token: owner).items.count == 1)

            let totals = try await client.call(.get, "/v1/donations/totals?year=2027", token: owner)
            #expect((totals.json["totals"] as? [[String: Any]])?.first?["amountMinor"] as? Int == 700)
            #expect((totals.json["byCategory"] as? [[String: Any]])?.first?["category"] as? String == "global-health")
            let earlier = try await client.call(.get, "/v1/donations/totals?year=2026", token: owner)
            #expect((earlier.json["totals"] as? [Any])?.count == 0)
        }
    }
}
