import Codecs
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// How a browser holds a Commons session: in cookies page scripts cannot read, instead of
/// the bearer tokens an app keeps in its keychain.
///
/// - `__Host-commons-access`: the access token (`HttpOnly`, `Secure`, `SameSite=Strict`,
///   `Path=/`). It is kept as long as the session may live; the token inside still expires
///   after 15 minutes, and a request with an expired one is a 401, after which the page
///   refreshes and tries again.
/// - `__Host-commons-refresh`: the refresh token (`HttpOnly`, `Secure`, `SameSite=Strict`,
///   `Path=/`, as the prefix requires).
/// - `__Host-commons-csrf`: the one cookie scripts can read, a digest of the access and the
///   refresh token together. A cookie-authenticated request that changes anything, a refresh
///   included, must echo it as `X-CSRF-Token` (the signed double-submit pattern): another site
///   can make the browser send the cookies but can neither read this one nor compute it, the
///   `__Host-` prefix keeps a sibling subdomain from planting any of the three, and a refresh
///   token planted some other way does not match the echo minted for the real one.
///
/// A client asks for cookies with `Commons-Token-Delivery: cookie` when it signs up, signs in
/// or refreshes. `Secure` cookies need HTTPS, or a loopback address (browsers treat
/// `http://127.0.0.1` and `localhost` as secure), which is what `commons up` serves.
public enum BrowserSession {
    public static let accessCookie = "__Host-commons-access"
    public static let refreshCookie = "__Host-commons-refresh"
    public static let csrfCookie = "__Host-commons-csrf"
    /// The request header that echoes ``csrfCookie``.
    public static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    /// The request header that asks for cookies instead of tokens in the body.
    public static let deliveryHeader = HTTPField.Name("Commons-Token-Delivery")!

    /// Whether the request asks for its tokens as cookies (`cookie`) rather than in the body
    /// (`body`, or no header); any other value is a 400.
    public static func wantsCookies(_ request: Request) throws -> Bool {
        switch request.headers[deliveryHeader]?.lowercased() {
        case nil, "body": return false
        case "cookie": return true
        default: throw Problem.malformed("Commons-Token-Delivery is `body` or `cookie`.")
        }
    }

    /// The CSRF token that goes with a session's access and refresh token.
    public static func csrfToken(for accessToken: String, refreshToken: String) -> String {
        let digest = SHA256.hash(data: Data("commons csrf\u{0}\(accessToken)\u{0}\(refreshToken)".utf8))
        return Base64URL.encode(Array(digest))
    }

    /// Whether `presented` is the CSRF token of the session cookies `request` carries
    /// (``csrfToken(for:refreshToken:)``), compared in constant time.
    public static func csrfMatches(_ presented: String?, cookiesOf request: Request) -> Bool {
        guard let presented, let access = request.cookies[accessCookie]?.value, let refresh = request.cookies[refreshCookie]?.value
        else { return false }
        let expected = Array(csrfToken(for: access, refreshToken: refresh).utf8), given = Array(presented.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The three cookies of a session that starts or is refreshed.
    public static func cookies(accessToken: String, refreshToken: String, lifetime: TimeInterval) -> [Cookie] {
        let seconds = Int(lifetime)
        return [
            Cookie(name: accessCookie, value: accessToken, maxAge: seconds, path: "/", secure: true, httpOnly: true, sameSite: .strict),
            Cookie(name: refreshCookie, value: refreshToken, maxAge: seconds, path: "/", secure: true, httpOnly: true, sameSite: .strict),
            Cookie(
                name: csrfCookie, value: csrfToken(for: accessToken, refreshToken: refreshToken), maxAge: seconds, path: "/", secure: true,
                httpOnly: false, sameSite: .strict),
        ]
    }

    /// Cookies that make the browser forget a session that ended.
    public static var clearingCookies: [Cookie] {
        [(accessCookie, true), (refreshCookie, true), (csrfCookie, false)].map { name, httpOnly in
            Cookie(name: name, value: "", maxAge: 0, path: "/", secure: true, httpOnly: httpOnly, sameSite: .strict)
        }
    }

    /// Whether a request with this method changes something, and so needs the CSRF echo.
    public static func isUnsafe(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }
}

extension Response {
    /// Sets each of `cookies`.
    public mutating func setCookies(_ cookies: [Cookie]) {
        for cookie in cookies { setCookie(cookie) }
    }
}
