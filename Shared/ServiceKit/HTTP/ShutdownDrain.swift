import HTTPTypes
import Hummingbird
import Synchronization

/// The moments between a stop signal and the server's stop, in which a replica behind a
/// gateway hands its clients over without a single failed request.
///
/// A gateway (nginx) keeps idle connections to each replica and sends the next request on
/// one of them. A server that closes such a connection as it stops may do so while a request
/// is on its way: the gateway then answers 502, since a POST it has sent is never sent twice.
/// So a stopping service first drains (``ServiceConfiguration/shutdownDrain``): it reports
/// not ready, answers every request as usual but with `Connection: close`, so that the
/// gateway drops each connection after its answer, and keeps accepting new connections. The
/// gateway closes the connections left idle on its own side (its `keepalive_timeout`, shorter
/// than the drain). Then the server stops listening (a connection refused is retried on
/// another replica, whatever the method) and ends.
public final class ShutdownDrain: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    /// Whether the service is stopping.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Starts the drain.
    public func begin() { draining.store(true, ordering: .relaxed) }
}

/// Asks the client to close the connection after each answer once the service drains.
struct ShutdownDrainMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let drain: ShutdownDrain

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if drain.isDraining { response.headers[.connection] = "close" }
        return response
    }
}
