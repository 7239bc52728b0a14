import AsyncHTTPClient
import EventLogSQLite
import Foundation
import Hummingbird
import ListingsService
import ServiceKit

/// The listings service served in process on loopback for a benchmark: on an embedded log
/// in `directory`, no rate limit, tokens signed by its own ring, and an HTTP client to
/// drive it. ``stop()`` shuts all of it down.
struct BenchListingsServer {
    let base: String
    let client: HTTPClient
    let ring: SigningKeyRing
    private let server: Task<Void, any Error>
    private let store: SQLiteEventStore

    /// Starts the service on `port` and waits until it is ready.
    static func start(directory: URL, port: Int) async throws -> BenchListingsServer {
        // `bench images` sets the upload path beside libvips alone on every core, so the bounds
        // that keep a core for the service's reads (PhotoJobs) are lifted to one job a core.
        let cores = String(ProcessInfo.processInfo.activeProcessorCount)
        let environment = EnvironmentVariables([
            "COMMONS_DATA_DIR": directory.path, "COMMONS_PORT": String(port),
            "COMMONS_RATE_LIMIT_PER_MINUTE": "1000000", "COMMONS_LOG_LEVEL": "error",
            "COMMONS_PHOTO_JOBS": cores, "COMMONS_PHOTO_JOBS_PER_ACCOUNT": cores,
        ])
        let configuration = try ServiceConfiguration(service: ListingsService.name, defaultPort: ListingsService.port, environment: environment)
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("events.sqlite").path)
        let ring = SigningKeyRing.generate()
        let (application, _, _) = try await ServiceApp.build(
            try ListingsService.definition(environment: environment), configuration: configuration, store: store,
            publicKeys: LocalPublicKeySource { ring })
        let server = Task { try await application.runService() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let base = "http://127.0.0.1:\(port)"
        try await Bench.waitUntilReady(client, "\(base)/health/ready")
        return BenchListingsServer(base: base, client: client, ring: ring, server: server, store: store)
    }

    /// An access token of a made-up member, valid for an hour.
    func memberToken() async throws -> String {
        let (signer, kid) = try await ring.signer()
        return try await signer.sign(
            AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 3_600), kid: .init(string: kid))
    }

    func stop() async throws {
        try await client.shutdown()
        server.cancel()
        _ = await server.result
        await store.shutdown()
    }
}
