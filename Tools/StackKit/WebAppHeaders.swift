/// The headers both gateways (`commons up`'s and nginx, `deploy/nginx.conf`) send with the
/// web app's files; scripts/check-deploy.sh checks that nginx.conf sends these values.
public enum WebAppHeaders {
    /// Only Commons' own scripts, styles, pictures and API: no inline script or style, no
    /// other origin, no framing. Pictures may also be `data:` and `blob:` URLs (a photo chosen
    /// for upload is previewed before it is sent).
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; font-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Every header, by name.
    public static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Permissions-Policy", "geolocation=(self), camera=(self), microphone=()"),
    ]
}
