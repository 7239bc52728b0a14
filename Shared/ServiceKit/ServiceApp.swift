import AsyncHTTPClient
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ReadModel
import ServiceLifecycle

/// Assembles a service: the same function runs in production and in tests.
public enum ServiceApp {
    /// Builds the application of `definition`, with its runtime and its routes as
    /// `"METHOD /path/{param}"` (which a test compares with the OpenAPI document).
    ///
    /// - Parameters:
    ///   - store: the log to use; nil opens the one the configuration names.
    ///   - publicKeys: where access-token keys come from; nil fetches them from `accounts`.
    ///   - traceExport: the span exporter ``TraceExport/bootstrap(service:environment:)``
    ///     returned; given, every request gets a span and the exporter runs with the server.
    public static func build(
        _ definition: ServiceDefinition, configuration: ServiceConfiguration,
        store: (any EventStore)? = nil, publicKeys: (any PublicKeySource)? = nil, traceExport: (any Service)? = nil
    ) async throws -> (application: some ApplicationProtocol, runtime: ServiceRuntime, routes: [String]) {
        var logger = Logger(label: "commons.\(definition.name)")
        logger.logLevel = configuration.logLevel
        _ = MetricsRegistry.registry
        let log: any EventStore
        if let store {
            log = store
        } else {
            // A service reads a few categories: it hears other processes' appends to those alone.
            log = try await configuration.eventStore.open(logger: logger, startupPatience: configuration.startupPatience, hearsEveryCategory: false)
        }
        let liveSessions = LiveSessions()
        let projections = [RevocationProjection(liveSessions: liveSessions)] + definition.projections
        if let source = configuration.snapshotSource {
            await SnapshotRestore.restoreIfEmpty(
                from: source, name: configuration.service, directory: URL(fileURLWithPath: configuration.dataDirectory), projections: projections,
                credential: ReplicaCredential(secrets: try ServiceRuntime.vaultSecrets(beside: log, environment: configuration.environment)),
                logger: logger)
        }
        let runtime = try ServiceRuntime(configuration: configuration, store: log, projections: projections, logger: logger)
        try await runtime.keyVault.checkSecrets()
        let source = try publicKeys ?? definition.publicKeys?(runtime) ?? HTTPPublicKeySource(accountsURL: configuration.accountsURL)
        let verifier = TokenVerifier(source: source, logger: logger)

        // Middlewares first: the router wraps each route with those added before it.
        // Outermost first: ids and metrics see everything, problems are rendered before
        // metrics record the status, and auth comes before what depends on the caller.
        let router = Router(context: AppRequestContext.self)
        let routeTable = RouteTable()
        if traceExport != nil {
            // Where someone is, and what they search for, stays out of the trace store.
            router.middlewares.add(TracingMiddleware(redactingQueryParameters: Self.personalQueryParameters))
        }
        router.middlewares.add(RequestIdentityMiddleware(service: definition.name, trustedProxies: configuration.trustedProxies))
        router.middlewares.add(RequestMetricsMiddleware(service: definition.name))
        router.middlewares.add(ShutdownDrainMiddleware(drain: runtime.drain))
        let problems = ProblemMiddleware(routes: routeTable)
        router.middlewares.add(problems)
        router.middlewares.add(DeadlineMiddleware(limit: configuration.requestDeadline))
        // Waiting for Commons-Min-Position comes before auth, so a token revoked by that
        // write is refused.
        // A mistake in the service's own code, which every test of the service would meet.
        if let problem = definition.projectionsByPath.problem(among: runtime.runners.map(\.projection.name)) {
            preconditionFailure("\(definition.name): \(problem)")
        }
        router.middlewares.add(
            ReadYourWritesMiddleware(
                runners: runtime.runners, store: runtime.store, byPath: definition.projectionsByPath,
                patience: configuration.readYourWritesPatience))
        router.middlewares.add(AuthMiddleware(verifier: verifier, revocations: runtime.readModel, liveSessions: liveSessions))
        router.middlewares.add(
            RateLimitMiddleware(
                limiter: RateLimiter(limit: configuration.rateLimitPerMinute), problems: problems,
                credentialRoutes: definition.credentialRoutes, credentialLimiter: RateLimiter(limit: configuration.credentialRateLimitPerMinute)))
        router.middlewares.add(KeyScopeMiddleware())
        router.middlewares.add(
            IdempotencyMiddleware(
                records: runtime.idempotency, service: definition.name, bodyLimits: definition.bodyLimits,
                lease: Double(configuration.requestDeadline.components.seconds) + 5))
        try definition.routes(router, runtime)
        addKitRoutes(to: router, runtime: runtime, document: definition.openAPI)
        let replay = ReadModelReplay(runtime: runtime)
        ProjectionAdministration.addRoutes(to: router, service: definition.name, runtime: runtime, replay: replay)
        ReplicaAdministration.addRoutes(to: router, service: definition.name, runtime: runtime, replay: replay)
        ReadModelSnapshotRoute.addRoutes(to: router, service: definition.name, runtime: runtime)
        routeTable.set(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })

        let application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "commons-\(definition.name)"),
            // The exporter is first, so it stops last and sends the spans of the last requests.
            services: [traceExport].compactMap { $0 } + [StoreCloser(store: log)] + runtime.runners as [any Service]
                + [LogHealthReporter(store: log, service: definition.name), KeyPrefetcher(verifier: verifier), ReplayCancellation(replay: replay)]
                + (try definition.backgroundServices(runtime)),
            logger: logger)
        return (application, runtime, router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
    }

    /// Query parameters a request span records as `REDACTED`: places and search text.
    static let personalQueryParameters: Set<String> = ["lat", "lon", "neLat", "neLon", "swLat", "swLon", "q", "author"]

    private static func addKitRoutes(to router: Router<AppRequestContext>, runtime: ServiceRuntime, document: OpenAPIDocument) {
        router.get("/health/live") { _, _ in ["status": "live"] }
        router.get("/health/ready") { _, _ -> [String: String] in
            if let reason = await runtime.notReadyReason() { throw Problem.notReady(reason) }
            return ["status": "ready"]
        }
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: MetricsRegistry.exposition())))
        }
        let openAPI = (try? document.json()) ?? Data("{}".utf8)
        router.get("/openapi.json") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: openAPI)))
        }
    }
}

/// Closes the log when the service group shuts down (it is first, so it stops last).
struct StoreCloser: Service {
    let store: any EventStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.shutdown()
    }
}
