import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit

/// A widgets service on a fresh log and data directory, with a key ring to mint tokens.
struct KitHarness {
    let log: TestLog
    let ring = SigningKeyRing.generate()
    let configuration: ServiceConfiguration

    init(backend: Backend = .sqlite, environment: [String: String] = [:], postgresURL: String? = nil) async throws {
        log = try await backend.makeLog(postgresURL: postgresURL)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-kit-\(UUID().uuidString)").path
        var configuration = try ServiceConfiguration(
            service: "widgets", defaultPort: 0,
            environment: EnvironmentVariables(environment.merging(["COMMONS_DATA_DIR": directory]) { $1 }.merging(log.serviceEnvironment) { $1 }))
        // A read with Commons-Min-Position waits for the projections; a loaded machine may take
        // seconds to apply a write, so only a position never reached waits this long.
        configuration.readYourWritesPatience = .seconds(15)
        self.configuration = configuration
    }

    /// Runs `body` against the service through HummingbirdTesting's router client, or with
    /// `.live` on a real port (`client.port`).
    func test(
        _ mode: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol, ServiceRuntime, [String]) async throws -> Void
    ) async throws {
        let ring = ring
        let (application, runtime, routes) = try await ServiceApp.build(
            WidgetsService.definition, configuration: configuration, store: log.store,
            publicKeys: LocalPublicKeySource { ring })
        try await application.test(mode) { client in try await body(client, runtime, routes) }
        await log.close()
    }

    /// Runs `body` against two replicas of the service: one log, two data directories, two
    /// connections to the log, as two processes have.
    func testReplicas(_ body: @escaping @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void) async throws {
        let ring = ring
        var second = configuration
        second.dataDirectory = configuration.dataDirectory + "-replica"
        let secondStore = try await log.independentStore()
        let (first, _, _) = try await ServiceApp.build(
            WidgetsService.definition, configuration: configuration, store: log.store,
            publicKeys: LocalPublicKeySource { ring })
        let (replica, _, _) = try await ServiceApp.build(
            WidgetsService.definition, configuration: second, store: secondStore,
            publicKeys: LocalPublicKeySource { ring })
        try await first.test(.router) { one in
            try await replica.test(.router) { two in try await body(one, two) }
        }
        await log.close()
    }

    /// A valid access token.
    func token(account: UUID = UUID(), session: UUID = UUID(), role: Identity.Role = .member, issuedAt: Date = Date()) async throws -> String {
        try await sign(AccessTokenClaims(accountId: account, sessionId: session, role: role, issuedAt: issuedAt, lifetime: 900))
    }

    /// `claims` signed with the harness's key.
    func sign(_ claims: AccessTokenClaims) async throws -> String {
        let (signer, kid) = try await ring.signer()
        return try await signer.sign(claims, kid: .init(string: kid))
    }
}

extension HTTPFields {
    static func json(token: String? = nil, _ extra: [HTTPField.Name: String] = [:]) -> HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        if let token { fields[.authorization] = "Bearer \(token)" }
        for (name, value) in extra { fields[name] = value }
        return fields
    }
}

extension TestResponse {
    /// The body as a JSON object.
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:] }
    var fieldErrors: [String: [String]] { json["errors"] as? [String: [String]] ?? [:] }
}
