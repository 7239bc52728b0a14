import AsyncHTTPClient
import Foundation
import Synchronization
import TopologyKit

extension Topology {
    /// Starts the compose topology on a PostgreSQL cluster of its own (every request from
    /// 127.0.0.1, so the per-address flood guard is out of the way) with an HTTP client that
    /// keeps `connections` open per host, runs `body`, then stops both, also when it throws,
    /// and on SIGINT or SIGTERM: then the topology is stopped (nginx and the PostgreSQL
    /// cluster included, which outlived an interrupted run before) and the process exits with
    /// 128 + the signal's number, as a shell reports a process the signal ended.
    static func measuring<Result>(
        replicas: Int, settings: [String: String], connections: Int, _ body: (Topology, HTTPClient) async throws -> Result
    ) async throws -> Result {
        let topology = try await Topology.start(replicas: replicas, ownPostgres: true, settings: settings, perClientRate: 1_000_000)
        let interrupts = InterruptSignals()
        let interruption = Interruption()
        let watcher = Task {
            guard let number = await interrupts.next() else { return }
            interruption.signal.withLock { $0 = number }
            Bench.note("interrupted: stopping the topology")
            await topology.stop()
            exit(128 + number)
        }
        defer { watcher.cancel() }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        // No client spans: with the default (no-op) tracer, AsyncHTTPClient still built a span
        // and its attributes for every request, a tenth of the load generator's CPU, which
        // shares the two cores with what it measures.
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(topology, client)
            try await client.shutdown()
            await topology.stop()
            return result
        } catch {
            // The measurement failed because the services were being stopped: the watcher exits.
            if interruption.signal.withLock({ $0 }) != nil { await watcher.value }
            try? await client.shutdown()
            await topology.stop()
            throw error
        }
    }
}

/// The signal that interrupted a measurement, once one has.
private final class Interruption: Sendable {
    let signal = Mutex<Int32?>(nil)
}
