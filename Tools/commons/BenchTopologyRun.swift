import AsyncHTTPClient
import TopologyKit

extension Topology {
    /// Starts the compose topology on a PostgreSQL cluster of its own (every request from
    /// 127.0.0.1, so the per-address flood guard is out of the way) with an HTTP client that
    /// keeps `connections` open per host, runs `body`, then stops both, also when it throws.
    static func measuring<Result>(
        replicas: Int, settings: [String: String], connections: Int, _ body: (Topology, HTTPClient) async throws -> Result
    ) async throws -> Result {
        let topology = try await Topology.start(replicas: replicas, ownPostgres: true, settings: settings, perClientRate: 1_000_000)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(topology, client)
            try await client.shutdown()
            await topology.stop()
            return result
        } catch {
            try? await client.shutdown()
            await topology.stop()
            throw error
        }
    }
}
