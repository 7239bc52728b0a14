/// One service of the stack: what `commons up` starts and where the gateway sends its requests.
public struct StackService: Sendable, Equatable {
    /// The service's name, which is also the name of its executable.
    public let name: String
    /// The port it listens on; `commons up --port-offset` adds to it.
    public let port: Int
    /// The path prefixes that belong to it alone (see ``GatewayRoutes`` for how they match).
    public let prefixes: [String]

    public init(name: String, port: Int, prefixes: [String]) {
        self.name = name
        self.port = port
        self.prefixes = prefixes
    }
}

/// Every service of Commons, in start order: the one place that says whose ports and paths are whose.
public enum ServiceTable {
    public static let services: [StackService] = [
        StackService(
            name: "accounts", port: 8081,
            prefixes: [
                "/v1/accounts", "/v1/sessions", "/v1/me", "/v1/users", "/v1/password-resets", "/.well-known",
                // The operator console's log browser, and this service's read model.
                "/v1/admin/log", "/v1/admin/accounts",
            ]),
        StackService(name: "listings", port: 8082, prefixes: ["/v1/listings", "/v1/images", "/v1/conversations", "/v1/admin/listings"]),
        StackService(name: "geo-search", port: 8083, prefixes: ["/v1/nearby", "/v1/area", "/v1/alerts", "/v1/admin/geo-search"]),
        StackService(
            name: "donations", port: 8084,
            prefixes: [
                "/v1/organizations", "/v1/wallet", "/v1/donations", "/v1/donation-posts", "/v1/impact", "/v1/admin/donations",
            ]),
        StackService(name: "shopping-lists", port: 8085, prefixes: ["/v1/products", "/v1/lists", "/v1/me/favorites", "/v1/admin/shopping-lists"]),
    ]

    /// The entry named `name`.
    public static func service(named name: String) -> StackService? {
        services.first { $0.name == name }
    }
}
