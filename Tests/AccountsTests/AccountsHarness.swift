import AccountsService
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import ServiceTestSupport
import Testing

/// The accounts service on a fresh log and data directory, bcrypt at its lowest cost.
struct AccountsHarness {
    let log: TestLog
    let dataDirectory: String
    let environment: EnvironmentVariables
    let clock: WallClock

    /// `clock` tells the service the time: a ``ManualClock``'s, where a test must not depend on
    /// how fast the machine runs it.
    init(backend: Backend = .sqlite, extra: [String: String] = [:], clock: WallClock = .system) async throws {
        self.clock = clock
        log = try await backend.makeLog()
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-accounts-\(UUID().uuidString)").path
        // Tests register and sign in far more often than a person: the credential limit has a test of its own.
        environment = EnvironmentVariables(
            [
                "COMMONS_DATA_DIR": dataDirectory, "COMMONS_BCRYPT_COST": "4",
                "COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE": "1000",
            ].merging(log.serviceEnvironment) { $1 }.merging(extra) { $1 })
    }

    func test(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        var configuration = try ServiceConfiguration(service: AccountsService.name, defaultPort: 0, environment: environment)
        configuration.readYourWritesPatience = .seconds(15) // another test may hold a PostgreSQL transaction for 10 s
        let (application, runtime, routes) = try await ServiceApp.build(
            try AccountsService.definition(environment: environment, clock: clock), configuration: configuration, store: log.store)
        try await application.test(.router) { client in try await body(Client(client: client, runtime: runtime, routes: routes)) }
        await log.close()
    }

    /// A test client that speaks JSON and remembers nothing.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let runtime: ServiceRuntime
        let routes: [String]

        @discardableResult
        func call(
            _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: Any? = nil,
            headers extra: [HTTPField.Name: String] = [:]
        ) async throws -> Reply {
            var headers = HTTPFields()
            if let token { headers[.authorization] = "Bearer \(token)" }
            if json != nil { headers[.contentType] = "application/json" }
            for (name, value) in extra { headers[name] = value }
            let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0)) }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(reply, method: method, uri: uri, document: AccountsService.openAPI)
            return reply
        }

        /// Registers and returns the tokens.
        func register(_ email: String, password: String = "a long enough phrase", name: String = "Ada Lovelace") async throws -> Tokens {
            let reply = try await call(.post, "/v1/accounts", json: ["email": email, "password": password, "displayName": name])
            guard reply.status == .created else { throw TestFailure("register \(email): \(reply.status) \(reply.text)") }
            return try reply.decode(Tokens.self)
        }

        func signIn(_ email: String, password: String = "a long enough phrase") async throws -> Reply {
            try await call(.post, "/v1/sessions", json: ["email": email, "password": password], headers: [.userAgent: "TestPhone/1.0"])
        }
    }

    struct Tokens: Codable, Sendable {
        var accountId: UUID
        var sessionId: UUID
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int
    }
}

extension AccountsHarness {
    typealias Reply = TestReply
}
