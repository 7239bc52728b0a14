import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ListingsService
import ServiceKit
import ServiceTestSupport
import Testing

/// The listings service on a fresh log and data directory, with a clock the test moves and
/// a key ring that mints tokens for made-up accounts.
struct ListingsHarness {
    let log: TestLog
    let dataDirectory: String
    let environment: EnvironmentVariables
    let ring = SigningKeyRing.generate()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    init(backend: Backend = .sqlite, extra: [String: String] = [:], postgresURL: String? = nil) async throws {
        log = try await backend.makeLog(postgresURL: postgresURL)
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-listings-\(UUID().uuidString)").path
        environment = EnvironmentVariables(
            ["COMMONS_DATA_DIR": dataDirectory, "COMMONS_LISTING_EXPIRY_SWEEP_SECONDS": "86400"]
                .merging(log.serviceEnvironment) { $1 }.merging(extra) { $1 })
    }

    func test(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        try await serve(store: log.store, environment: environment, body)
        await log.close()
    }

    /// Two replicas of the service on the one log, each with its own data directory (read
    /// model, idempotency records) and its own connection to the log, as two processes have.
    func testReplicas(_ body: @escaping @Sendable (Client, Client) async throws -> Void) async throws {
        let secondDirectory = dataDirectory + "-replica"
        let second = EnvironmentVariables(environment.values.merging(["COMMONS_DATA_DIR": secondDirectory]) { $1 })
        let secondStore = try await log.independentStore()
        try await serve(store: log.store, environment: environment) { first in
            try await serve(store: secondStore, environment: second) { replica in try await body(first, replica) }
        }
        await log.close()
    }

    private func serve(
        store: any EventStore, environment: EnvironmentVariables, _ body: @escaping @Sendable (Client) async throws -> Void
    ) async throws {
        var configuration = try ServiceConfiguration(service: ListingsService.name, defaultPort: 0, environment: environment)
        configuration.readYourWritesPatience = .seconds(15) // another test may hold a PostgreSQL transaction for 10 s
        let ring = ring
        let (application, runtime, routes) = try await ServiceApp.build(
            try ListingsService.definition(environment: environment, clock: clock.clock), configuration: configuration, store: store,
            publicKeys: LocalPublicKeySource { ring })
        let clock = clock
        try await application.test(.router) { test in
            try await body(Client(client: test, runtime: runtime, routes: routes, ring: ring, clock: clock, environment: environment))
        }
    }

    /// A person with a token.
    struct Person: Sendable {
        let id: UUID
        let token: String
    }

    /// A test client that speaks JSON and remembers the last write's position.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let runtime: ServiceRuntime
        let routes: [String]
        let ring: SigningKeyRing
        let clock: ManualClock
        let environment: EnvironmentVariables

        /// A new account with a valid token.
        func person(role: Identity.Role = .member) async throws -> Person {
            let id = UUID()
            let (signer, kid) = try await ring.signer()
            let claims = AccessTokenClaims(accountId: id, sessionId: UUID(), role: role, issuedAt: Date(), lifetime: 900)
            return Person(id: id, token: try await signer.sign(claims, kid: .init(string: kid)))
        }

        /// Records in the log that `person` registered `age` ago, as the accounts service
        /// would have: how long a reporter has been around decides what their report weighs.
        func registered(_ person: Person, ago age: TimeInterval) async throws {
            let placeholder = Sealed(keyId: person.id, box: "")
            let registered = AccountRegistered(
                accountId: person.id, role: "member", personal: placeholder, passwordHash: placeholder,
                registeredAt: clock.now().addingTimeInterval(-age))
            _ = try await runtime.store.append(
                to: "account-\(person.id.uuidString.lowercased())", expected: .noStream, events: [try EventCatalog.encode(registered)])
        }

        @discardableResult
        func call(
            _ method: HTTPRequest.Method, _ uri: String, as person: Person? = nil, json: Any? = nil, bytes: [UInt8]? = nil,
            headers extra: [HTTPField.Name: String] = [:]
        ) async throws -> Reply {
            var headers = HTTPFields()
            if let person { headers[.authorization] = "Bearer \(person.token)" }
            if json != nil { headers[.contentType] = "application/json" }
            for (name, value) in extra { headers[name] = value }
            let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0)) } ?? bytes.map { ByteBuffer(bytes: $0) }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(reply, method: method, uri: uri, document: ListingsService.openAPI)
            return reply
        }

        /// GET after the read model has applied `position`.
        func get(_ uri: String, as person: Person? = nil, after position: String?) async throws -> Reply {
            try await call(.get, uri, as: person, headers: position.map { [.commonsMinPosition: $0] } ?? [:])
        }

        /// Posts a listing; returns its id and the write's position.
        func post(_ fields: [String: Any] = [:], as person: Person) async throws -> (id: String, position: String, reply: Reply) {
            let reply = try await call(.post, "/v1/listings", as: person, json: ListingsFixtures.listing.merging(fields) { $1 })
            guard reply.status == .created, let id = reply.json["id"] as? String else { throw TestFailure("post: \(reply.status) \(reply.text)") }
            return (id.lowercased(), reply.position ?? "", reply)
        }

        /// The items of a 200 feed answer.
        func items(_ uri: String, as person: Person? = nil, after position: String?) async throws -> [[String: Any]] {
            let reply = try await get(uri, as: person, after: position)
            guard reply.status == .ok else { throw TestFailure("\(uri): \(reply.status) \(reply.text)") }
            return reply.json["items"] as? [[String: Any]] ?? []
        }
    }

}

/// What the tests post.
enum ListingsFixtures {
    /// The exact pickup point: a house on the Prinsengracht, Amsterdam.
    static let exactLat = 52.374_518_7
    static let exactLon = 4.883_917_3
    static let address = "Prinsengracht 263, 1016 GV Amsterdam"

    static var listing: [String: Any] {
        [
            "title": "Oak dining chair", "description": "Sturdy, a little scratched", "category": "Furniture", "condition": "good",
            "pickupLocation": ["lat": exactLat, "lon": exactLon], "streetAddress": address,
            "pickupTimes": ["note": "weekday evenings"],
        ]
    }
}

extension [[String: Any]] {
    var ids: [String] { compactMap { $0["id"] as? String }.map { $0.lowercased() } }
}

extension ListingsHarness {
    typealias Reply = TestReply
}
