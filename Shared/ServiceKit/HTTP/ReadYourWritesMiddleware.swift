import EventLog
import Foundation
import Hummingbird
import ReadModel

/// `Commons-Min-Position: <checkpoint>` on a read waits (up to `patience`) until every
/// projection of this service has applied that checkpoint, so a client reads its own
/// writes even when they went to another service; past the wait it answers 503.
struct ReadYourWritesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let runners: [ProjectionRunner]
    let patience: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let value = request.headers[.commonsMinPosition] else { return try await next(request, context) }
        guard let checkpoint = Checkpoint(value) else {
            throw Problem.malformed("Commons-Min-Position must be a value from a Commons-Position header.",
                                   errors: ["Commons-Min-Position": ["is not a position"]])
        }
        guard await ProjectionRunner.waitUntilApplied(runners, checkpoint, timeout: patience) else {
            throw Problem.notReady("This service has not yet caught up with position \(value); try again shortly.")
        }
        return try await next(request, context)
    }
}
