import EventLog
import Foundation
import Hummingbird
import ReadModel
import ServiceLifecycle

/// What makes one service different from another; everything else comes from the kit.
public struct ServiceDefinition: Sendable {
    /// The executable's name, e.g. `accounts`; also its read model's and logger's name.
    public var name: String
    public var defaultPort: Int
    /// The projections of the service's read model (the kit adds its revocation list).
    public var projections: [any Projection]
    /// Every route the service adds, documented, and the kit's `/v1/admin/<name>` routes
    /// (``OpenAPIDocument/administered(as:)``).
    public var openAPI: OpenAPIDocument
    /// Adds the service's routes.
    public var routes: @Sendable (_ router: Router<AppRequestContext>, _ runtime: ServiceRuntime) throws -> Void
    /// Routes that take bodies larger than JSON's 64 KiB, by path (e.g. `/v1/images`: 10 MiB),
    /// so that the kit's middlewares that read a body (idempotency) read all of it.
    public var bodyLimits: [String: Int]
    /// Where the service's own token keys come from, when it signs them itself (accounts);
    /// nil: from `accounts`' JWKS. A `publicKeys` given to ``ServiceApp/build`` wins.
    public var publicKeys: (@Sendable (_ runtime: ServiceRuntime) throws -> any PublicKeySource)?
    /// Long-running work of the service (a scheduler, a periodic sweep), run with the app,
    /// started after the projections and stopped on graceful shutdown before them.
    public var backgroundServices: @Sendable (_ runtime: ServiceRuntime) throws -> [any Service]
    /// Routes where each request is a guess at a secret or creates an account (`POST
    /// /v1/sessions`): each has a budget of its own per client address, far below the
    /// general one (`COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE`), signed in or not.
    public var credentialRoutes: Set<String> = []
    /// The projections that reads under a path prefix wait for when they carry
    /// `Commons-Min-Position`; other paths wait for all of them (see ``ProjectionsByPath``).
    public var projectionsByPath = ProjectionsByPath()

    public init(
        name: String, defaultPort: Int, projections: [any Projection], openAPI: OpenAPIDocument, bodyLimits: [String: Int] = [:],
        publicKeys: (@Sendable (_ runtime: ServiceRuntime) throws -> any PublicKeySource)? = nil,
        backgroundServices: @escaping @Sendable (_ runtime: ServiceRuntime) throws -> [any Service] = { _ in [] },
        routes: @escaping @Sendable (_ router: Router<AppRequestContext>, _ runtime: ServiceRuntime) throws -> Void
    ) {
        self.name = name
        self.defaultPort = defaultPort
        self.projections = projections
        self.openAPI = openAPI
        self.bodyLimits = bodyLimits
        self.publicKeys = publicKeys
        self.backgroundServices = backgroundServices
        self.routes = routes
    }
}
