import AsyncHTTPClient
import Hummingbird
import Logging
import ServiceLifecycle

/// The built-in gateway of `commons up`: every service under one origin, routed by path prefix.
struct GatewayServer {
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts listening on `host:port` and returns once it does; throws when it cannot
    /// (the port is taken, say). `traceExport`, the span exporter when tracing is on, runs
    /// with it and stops after it.
    static func start(
        host: String, port: Int, responder: GatewayResponder, logger: Logger, traceExport: (any Service)? = nil
    ) async throws -> GatewayServer {
        let (listening, listened) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        let application = Application(
            responder: responder,
            configuration: .init(address: .hostname(host, port: port), serverName: "commons-gateway"),
            onServerRunning: { _ in listened.yield(.success(())) },
            logger: logger)
        let services = ([traceExport].compactMap { $0 } + [application]).map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        let running = Task {
            do {
                try await group.run()
                listened.yield(.failure(GatewayStopped()))
            } catch {
                listened.yield(.failure(error))
                throw error
            }
        }
        for await outcome in listening {
            try outcome.get()
            break
        }
        return GatewayServer(group: group, running: running)
    }

    /// Stops accepting requests, lets those under way finish, and returns when it has stopped.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
    }
}

private struct GatewayStopped: Error, CustomStringConvertible {
    var description: String { "the gateway stopped before it was listening" }
}
