import AsyncHTTPClient
import CommonsBench
import EventLog
import Foundation
import GeoSearchService
import Hummingbird
import ListingsService
import ServiceKit

/// A service `commons bench snapshot` starts replicas of, and how it compares two of them.
enum SnapshotBenchService {
    case geoSearch, listings

    var name: String {
        switch self {
        case .geoSearch: GeoSearchService.name
        case .listings: ListingsService.name
        }
    }

    /// The service's settings for a bench: nothing expires while it runs.
    var settings: [String: String] {
        switch self {
        case .geoSearch: [:]
        case .listings: ["COMMONS_LISTING_LIFETIME_DAYS": "365", "COMMONS_LISTING_EXPIRY_SWEEP_SECONDS": "86400"]
        }
    }

    func definition(_ environment: EnvironmentVariables) throws -> ServiceDefinition {
        switch self {
        case .geoSearch: try GeoSearchService.definition(environment: environment)
        case .listings: try ListingsService.definition(environment: environment)
        }
    }

    /// How many answers ``differingAnswers(client:peer:joiner:queries:)`` compares.
    func comparedAnswers(_ queries: Int) -> Int {
        switch self {
        case .geoSearch: queries
        case .listings: 10
        }
    }

    /// Asks both replicas the same questions and counts the answers that differ: nearby
    /// searches over the metro area for geo-search, the feed's first pages for listings.
    func differingAnswers(client: HTTPClient, peer: Int, joiner: Int, queries: Int) async throws -> Int {
        var paths: [String] = []
        switch self {
        case .geoSearch:
            for _ in 0..<queries {
                let (lat, lon) = GeoSearchBenchmark.metroPoint(Double.random(in: 0.1..<0.9), Double.random(in: 0.1..<0.9))
                paths.append("/v1/nearby/listings?lat=\(lat)&lon=\(lon)&radius=3")
            }
        case .listings:
            paths = ["/v1/listings?limit=50"] + GeoSearchBenchmark.categories.prefix(9).map { "/v1/listings?limit=50&category=\($0)" }
        }
        var differing = 0
        for path in paths {
            let ours = try await Self.body(client, "http://127.0.0.1:\(joiner)\(path)")
            let theirs = try await Self.body(client, "http://127.0.0.1:\(peer)\(path)")
            if ours != theirs { differing += 1 }
        }
        return differing
    }

    private static func body(_ client: HTTPClient, _ url: String) async throws -> Data {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        guard response.status == .ok else { throw CommandFailure("\(url) answered \(response.status.code)") }
        return Data(buffer: try await response.body.collect(upTo: 16 << 20))
    }
}

/// One replica of a service, in process on loopback, started on an empty data directory.
struct BenchReplica {
    /// From the call that built it to the first moment it reported ready.
    let timeToReady: Duration
    /// The size of its read-model files once ready.
    let readModelBytes: Int64
    private let server: Task<Void, any Error>
    private let store: any EventStore

    /// Starts a replica of `service` on `store` in `directory` (made empty), from
    /// `snapshotFrom` when given, and waits until it reports ready (`/health/ready`'s test).
    static func start(
        _ service: SnapshotBenchService, store: any EventStore, directory: URL, port: Int, snapshotFrom source: String? = nil
    ) async throws -> BenchReplica {
        try? FileManager.default.removeItem(at: directory)
        var variables = [
            "COMMONS_DATA_DIR": directory.path, "COMMONS_PORT": String(port), "COMMONS_LOG_LEVEL": "warning",
            "COMMONS_RATE_LIMIT_PER_MINUTE": "1000000",
        ].merging(service.settings) { $1 }
        if let source { variables["COMMONS_SNAPSHOT_SOURCE"] = source }
        let environment = EnvironmentVariables(variables)
        var configuration = try ServiceConfiguration(service: service.name, defaultPort: port, environment: environment)
        configuration.host = "127.0.0.1"
        let started = ContinuousClock.now
        let (application, runtime, _) = try await ServiceApp.build(
            try service.definition(environment), configuration: configuration, store: store,
            publicKeys: LocalPublicKeySource { SigningKeyRing.generate() })
        let server = Task { try await application.runService(gracefulShutdownSignals: []) }
        while await runtime.notReadyReason() != nil {
            if server.isCancelled { throw CommandFailure("\(service.name) stopped before it was ready") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let timeToReady = ContinuousClock.now - started
        let bytes =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.reduce(Int64(0)) { total, name in
                total
                    + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? NSNumber)?
                        .int64Value ?? 0)
            } ?? 0
        // Ready means caught up; the listener may still be a moment behind.
        try await Task.sleep(for: .milliseconds(300))
        return BenchReplica(timeToReady: timeToReady, readModelBytes: bytes, server: server, store: store)
    }

    func stop() async throws {
        server.cancel()
        _ = await server.result
        await store.shutdown()
    }
}
