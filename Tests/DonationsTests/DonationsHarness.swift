import Contracts
import DonationsService
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import ServiceTestSupport
import Testing

/// The donations service on a fresh log and data directory, with a key ring to mint tokens
/// and a clock the test moves.
struct DonationsHarness {
    let log: TestLog
    let dataDirectory: String
    let ring = SigningKeyRing.generate()
    let clock = ManualClock(DonationsHarness.start)
    /// `COMMONS_PAYMENTS` of the service: the simulated processor, unless a test says none ("").
    let payments: String

    /// 15 March 2027, 10:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_805_364_000)

    init(backend: Backend = .sqlite, payments: String = "simulated") async throws {
        log = try await backend.makeLog()
        self.payments = payments
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-donations-\(UUID().uuidString)").path
    }

    func test(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        try await replica(dataDirectory: dataDirectory, body)
        await log.close()
    }

    /// Another replica of the service on the same log, with its own data directory (read
    /// model and idempotency records), as a second process behind the gateway would be.
    func replica(
        dataDirectory: String = FileManager.default.temporaryDirectory.appendingPathComponent("commons-donations-\(UUID().uuidString)").path,
        _ body: @escaping @Sendable (Client) async throws -> Void
    ) async throws {
        // The service's own scheduler ticks once at start and then waits a day: tests tick schedulers by hand.
        let environment = EnvironmentVariables(
            [
                "COMMONS_DATA_DIR": dataDirectory, "COMMONS_RECURRING_INTERVAL_SECONDS": "86400",
                "COMMONS_PAYMENTS": payments,
            ].merging(log.serviceEnvironment) { $1 })
        var configuration = try ServiceConfiguration(service: DonationsService.name, defaultPort: 0, environment: environment)
        configuration.readYourWritesPatience = .seconds(15) // another test may hold a PostgreSQL transaction for 10 s
        configuration.rateLimitPerMinute = 1_000_000
        // The stress test queues 2,000 requests on one wallet in one process, some for longer
        // than the production deadline; deadlines have tests of their own (OutageTests).
        configuration.requestDeadline = .seconds(600)
        let ring = ring
        let (application, runtime, routes) = try await ServiceApp.build(
            try DonationsService.definition(environment: environment, clock: clock.clock), configuration: configuration, store: log.store,
            publicKeys: LocalPublicKeySource { ring })
        let clock = clock
        try await application.test(.router) { client in
            try await body(Client(client: client, runtime: runtime, routes: routes, ring: ring, clock: clock))
        }
    }

    /// A test client that speaks JSON, mints tokens and knows the demo card numbers.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let runtime: ServiceRuntime
        let routes: [String]
        let ring: SigningKeyRing
        let clock: ManualClock

        static let goodCard = "4242 4242 4242 4242"
        static let declinedCard = "4000 0000 0000 0002"

        /// A valid access token of `account`.
        func token(_ account: UUID = UUID(), role: Identity.Role = .member) async throws -> String {
            let (signer, kid) = try await ring.signer()
            let claims = AccessTokenClaims(accountId: account, sessionId: UUID(), role: role, issuedAt: Date(), lifetime: 900)
            return try await signer.sign(claims, kid: .init(string: kid))
        }

        func admin() async throws -> String { try await token(role: .admin) }

        @discardableResult
        func call(
            _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: Any? = nil, key: String? = nil,
            headers extra: [HTTPField.Name: String] = [:]
        ) async throws -> Reply {
            var headers = HTTPFields()
            if let token { headers[.authorization] = "Bearer \(token)" }
            if json != nil { headers[.contentType] = "application/json" }
            if let key { headers[.idempotencyKey] = key }
            for (name, value) in extra { headers[name] = value }
            let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(reply, method: method, uri: uri, document: DonationsService.openAPI)
            return reply
        }

        /// A GET that waits until the service has applied `position`.
        func get(_ uri: String, token: String? = nil, after position: String?) async throws -> Reply {
            try await call(.get, uri, token: token, headers: position.map { [.commonsMinPosition: $0] } ?? [:])
        }

        /// Registers an organisation as an admin (verified unless told otherwise) and returns its id.
        @discardableResult
        func organization(
            _ slug: String, verified: Bool = true, minimum: Int = 500, currency: String = "USD", kind: String = "charity",
            categories: [String] = ["global-health"], tags: [String] = ["malaria"], name: String? = nil,
            extra: [String: Any] = [:]
        ) async throws -> UUID {
            let admin = try await admin()
            var body: [String: Any] = [
                "name": name ?? slug.capitalized, "slug": slug, "kind": kind, "mission": "Helps people in need.",
                "currency": currency, "minimumDonationMinor": minimum, "categories": categories, "tags": tags,
            ]
            if kind != "charity" {
                body["address"] = "1 Market Street, San Francisco"
                body["location"] = ["lat": 37.79, "lon": -122.4]
            }
            body.merge(extra) { $1 }
            let created = try await call(.post, "/v1/organizations", token: admin, json: body)
            guard created.status == .created, let id = (created.json["id"] as? String).flatMap(UUID.init(uuidString:)) else {
                throw TestFailure("create \(slug): \(created.status) \(created.text)")
            }
            var position = created.position
            if verified {
                let verification = try await call(.put, "/v1/organizations/\(id.uuidString)/verification", token: admin, json: ["verified": true])
                guard verification.status == .ok else { throw TestFailure("verify \(slug): \(verification.status) \(verification.text)") }
                position = verification.position
            }
            // Reads that follow (lists, searches) see it: the read model has applied it.
            let settled = try await get("/v1/organizations/\(id.uuidString)", after: position)
            guard settled.status == .ok else { throw TestFailure("read \(slug): \(settled.status) \(settled.text)") }
            return id
        }

        /// Tops up the wallet of `token`'s account with the card that succeeds.
        @discardableResult
        func topUp(_ token: String, _ amountMinor: Int, currency: String = "USD", key: String = UUID().uuidString) async throws -> Reply {
            let reply = try await call(
                .post, "/v1/wallet/top-ups", token: token,
                json: ["amountMinor": amountMinor, "currency": currency, "cardNumber": Self.goodCard], key: key)
            guard reply.status == .created else { throw TestFailure("top-up: \(reply.status) \(reply.text)") }
            return reply
        }

        func donate(
            _ token: String, to organization: String, _ amountMinor: Int, currency: String = "USD", visibility: String = "public",
            message: String? = nil, key: String = UUID().uuidString
        ) async throws -> Reply {
            var body: [String: Any] = ["organization": organization, "amountMinor": amountMinor, "currency": currency, "visibility": visibility]
            if let message { body["message"] = message }
            return try await call(.post, "/v1/donations", token: token, json: body, key: key)
        }

        /// The balance in `currency` of `token`'s wallet.
        func balance(_ token: String, currency: String = "USD") async throws -> Int {
            let wallet = try await call(.get, "/v1/wallet", token: token)
            let balances = wallet.json["balances"] as? [[String: Any]] ?? []
            return balances.first { $0["currency"] as? String == currency }?["amountMinor"] as? Int ?? 0
        }
    }

}

extension DonationsHarness {
    typealias Reply = TestReply
}
