import EventLog
import Foundation
import Hummingbird
import ReadModel

/// `Commons-Min-Position: <checkpoint>` on a read waits (up to `patience`) until the
/// projections the route reads (``ProjectionsByPath``; all of the service's unless it says
/// otherwise) have applied that checkpoint, so a client reads its own writes even when they
/// went to another service; past the wait it answers 503. A checkpoint beyond the log's end,
/// which no wait would reach, is a bad request (400) at once.
struct ReadYourWritesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let runners: [ProjectionRunner]
    let store: any EventStore
    let byPath: ProjectionsByPath
    let patience: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let value = request.headers[.commonsMinPosition] else { return try await next(request, context) }
        guard let checkpoint = Checkpoint(value) else {
            throw Problem.malformed(
                "Commons-Min-Position must be a value from a Commons-Position header.",
                errors: ["Commons-Min-Position": ["is not a position"]])
        }
        let waited = waited(by: request)
        // Most reads ask for a position applied already: only the others ask the log.
        if waited.allSatisfy({ $0.status.checkpoint >= checkpoint }) { return try await next(request, context) }
        // A log that cannot answer now (PostgreSQL restarting) leaves the wait to decide: 503.
        guard (try? await store.hasReached(checkpoint)) != false else {
            throw Problem.malformed(
                "Commons-Min-Position is beyond the end of the event log: send only a value from a Commons-Position header.",
                errors: ["Commons-Min-Position": ["is beyond the end of the log"]])
        }
        guard await ProjectionRunner.waitUntilApplied(waited, checkpoint, timeout: patience) else {
            throw Problem.notReady("This service has not yet caught up with position \(value); try again shortly.")
        }
        return try await next(request, context)
    }

    /// The runners `request` waits for: credentials (a bearer token or the browser's access
    /// cookie, as ``AuthMiddleware`` reads them) add the revocation list.
    private func waited(by request: Request) -> [ProjectionRunner] {
        let credentials = request.headers[.authorization] != nil || request.cookies[BrowserSession.accessCookie] != nil
        let names = byPath.waited(forPath: request.uri.path, credentials: credentials, among: runners.map(\.projection.name))
        return runners.filter { names.contains($0.projection.name) }
    }
}
