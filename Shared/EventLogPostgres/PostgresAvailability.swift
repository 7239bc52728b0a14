import PostgresNIO

/// Tells errors that mean "PostgreSQL cannot be reached right now" (a restart, a dropped
/// connection, a server shutting down or refusing connections) from errors of the request,
/// so that services answer the first with 503 and `Retry-After`, never 500.
public enum PostgresAvailability {
    /// True when `error` says the server or the connection is unavailable, not that the
    /// statement was wrong.
    public static func isUnavailable(_ error: any Error) -> Bool {
        // The pool's own errors (a lease given up while no connection could be made) come
        // from a module PostgresNIO does not export.
        if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") { return true }
        if error is PostgresQueryAbandoned { return true }
        // The store reports a statement's failure in its own words, keeping the driver's error.
        if let reported = error as? PostgresEventStoreError { return reported.underlying.map(isUnavailable) ?? false }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return true
        case .server:
            // Class 08: connection exception; 57P01–57P03: admin or crash shutdown, cannot
            // connect now; class 53: insufficient resources (too many connections, disk full).
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53")
        default:
            return false
        }
    }
}
