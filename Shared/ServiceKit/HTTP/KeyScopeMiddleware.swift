import EventLog
import Hummingbird

/// Runs each request in a ``KeyScope`` of its own, so that a request which seals and opens
/// several fields of one person looks their key up once; nothing is remembered past it.
struct KeyScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await KeyScope.run { try await next(request, context) }
    }
}
