import AccountsDomain
import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit

/// Sessions for browsers: tokens as cookies page scripts cannot read (``BrowserSession``).
extension AccountsAPI {
    /// What a browser gets instead of ``AccountsCommands/Tokens``: the session, not its secrets.
    struct CookieSession: Encodable {
        var accountId: UUID
        var sessionId: UUID
        var tokenType = "Cookie"
        var expiresIn: Int
    }

    /// A session's tokens in the body, or, `asCookies` (``BrowserSession/wantsCookies(_:)``,
    /// read before the command runs), as cookies beside a body that names the session only.
    func deliver(
        _ tokens: Tokens, asCookies: Bool, status: HTTPResponse.Status = .ok,
        position: Checkpoint, location: String? = nil
    ) throws -> Response {
        guard asCookies else {
            return try Response.json(tokens, status: status, position: position, location: location)
        }
        var response = try Response.json(
            CookieSession(accountId: tokens.accountId, sessionId: tokens.sessionId, expiresIn: tokens.expiresIn),
            status: status, position: position, location: location)
        response.setCookies(
            BrowserSession.cookies(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                lifetime: SessionState.idleLifetime))
        return response
    }

    /// The refresh token of a refresh: the body's, or else a browser's refresh cookie, which
    /// is only taken with the CSRF echo minted for it (and the access cookie beside it), as
    /// for any change made with cookies.
    func refreshToken(_ body: TokenRefresh, _ request: Request) throws -> String {
        if let token = body.refreshToken { return token }
        guard let cookie = request.cookies[BrowserSession.refreshCookie]?.value, !cookie.isEmpty else {
            throw Problem.validation(["refreshToken": ["Send the refresh token, or the refresh cookie of a browser session."]])
        }
        guard BrowserSession.csrfMatches(request.headers[BrowserSession.csrfHeader], cookiesOf: request) else {
            throw Problem.forbidden(
                "A refresh with the session cookie must carry the `\(BrowserSession.csrfCookie)` cookie's value as `X-CSRF-Token`.")
        }
        return cookie
    }
}
