import Codecs
import Foundation
import GRDB
import Hummingbird
import ReadModel

/// Reads `Authorization: Bearer <token>`, or else a browser's access cookie
/// (``BrowserSession``): a valid token of a live session sets
/// ``AppRequestContext/identity``; an invalid, expired or revoked one is a 401. A
/// cookie-authenticated request that changes something without the matching `X-CSRF-Token`
/// is a 403. Neither header nor cookie leaves the request anonymous, and each route decides
/// whether that is enough.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let verifier: TokenVerifier
    let revocations: ReadModelDatabase
    let liveSessions: LiveSessions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let header = request.headers[.authorization] {
            guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
                throw Problem.unauthorized("Send the access token as `Authorization: Bearer <token>`.")
            }
            guard let identity = try await liveIdentity(String(header.dropFirst(7))) else {
                throw Problem.unauthorized("The access token is invalid, has expired or its session has ended; refresh it or sign in again.")
            }
            return try await next(request, authenticated(context, as: identity))
        }
        // A browser cannot choose which cookies it sends: a stale one leaves the request
        // anonymous, so signing in again or refreshing still works, and the page refreshes
        // its session before the token inside expires.
        guard let cookie = request.cookies[BrowserSession.accessCookie]?.value, !cookie.isEmpty,
            let identity = try await liveIdentity(cookie)
        else { return try await next(request, context) }
        if BrowserSession.isUnsafe(request.method),
            !BrowserSession.csrfMatches(request.headers[BrowserSession.csrfHeader], cookiesOf: request)
        {
            throw Problem.forbidden(
                "A change made with the session cookie must carry the `\(BrowserSession.csrfCookie)` cookie's value as `X-CSRF-Token`.")
        }
        return try await next(request, authenticated(context, as: identity))
    }

    /// The identity a token proves, or nil when it is invalid, expired or revoked.
    private func liveIdentity(_ token: String) async throws -> Identity? {
        guard let identity = try? await verifier.verify(token) else { return nil }
        return try await liveSessions.isRevoked(identity, in: revocations) ? nil : identity
    }

    private func authenticated(_ context: Context, as identity: Identity) -> Context {
        var context = context
        context.identity = identity
        // Lower case, as the events' metadata writes it; and without `uuidString`, which formats
        // each byte with `snprintf` on Linux, on every authenticated request.
        context.logger[metadataKey: "actorId"] = .string(identity.accountId.lowercasedText)
        return context
    }
}
