import Foundation
import ReadModel
import GRDB
import Hummingbird

/// Reads `Authorization: Bearer <token>`: a valid token of a live session sets
/// ``AppRequestContext/identity``; an invalid, expired or revoked one is a 401. No header
/// leaves the request anonymous, and each route decides whether that is enough.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let verifier: TokenVerifier
    let revocations: ReadModelDatabase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw Problem.unauthorized("Send the access token as `Authorization: Bearer <token>`.")
        }
        let identity: Identity
        do {
            identity = try await verifier.verify(String(header.dropFirst(7)))
        } catch {
            throw Problem.unauthorized("The access token is invalid or has expired.")
        }
        if try await RevocationProjection.isRevoked(identity, in: revocations.pool) {
            throw Problem.unauthorized("This session has ended; sign in again.")
        }
        var context = context
        context.identity = identity
        context.logger[metadataKey: "actorId"] = "\(identity.accountId)"
        return try await next(request, context)
    }
}
