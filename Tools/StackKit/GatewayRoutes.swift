/// Which service a request path belongs to: the one with the longest prefix that matches.
///
/// A prefix matches the path itself and anything below it, so `/v1/me` matches `/v1/me`
/// and `/v1/me/password` but not `/v1/messages`, and `/v1/me/favorites` (shopping-lists)
/// wins over `/v1/me` (accounts) for `/v1/me/favorites/3`.
public struct GatewayRoutes: Sendable {
    /// Longest prefix first, so the first match is the answer.
    private let routes: [(prefix: String, service: String)]

    public init(_ services: [StackService]) {
        routes =
            services
            .flatMap { service in service.prefixes.map { (prefix: $0, service: service.name) } }
            .sorted { $0.prefix.utf8.count > $1.prefix.utf8.count }
    }

    /// The name of the service that serves `path` (without the query), or nil when none does.
    public func service(for path: String) -> String? {
        routes.first { Self.path(path, isUnder: $0.prefix) }?.service
    }

    /// Whether a request is for a server-sent event stream, which stays open for as long as
    /// the client listens: it asks for `text/event-stream`, or its path is one of the
    /// services' live streams (`/v1/alerts/stream`, `/v1/lists/events`, `/v1/lists/{id}/events`). A gateway
    /// gives such a request no overall deadline, as nginx gives those paths an hour between
    /// reads (the services send a keep-alive every 15 s).
    public static func isEventStream(path: String, accept: String?) -> Bool {
        if let accept, accept.lowercased().contains("text/event-stream") { return true }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if path == "/v1/alerts/stream" || path == "/v1/lists/events" { return true }
        return segments.count == 5 && segments[1] == "v1" && segments[2] == "lists" && segments[4] == "events"
    }

    // Bytes, not characters: a path is compared as sent, without Unicode equivalence.
    private static func path(_ path: String, isUnder prefix: String) -> Bool {
        guard path.utf8.starts(with: prefix.utf8) else { return false }
        let rest = path.utf8.dropFirst(prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}
