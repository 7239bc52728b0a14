import EventLogPostgres
import GRDB

/// Errors that say a store cannot be used right now (PostgreSQL restarting or unreachable,
/// a SQLite file locked past its busy timeout), which are answered with 503 and
/// `Retry-After` rather than 500: the request may well succeed when retried.
enum StoreAvailability {
    static func isUnavailable(_ error: any Error) -> Bool {
        if PostgresAvailability.isUnavailable(error) { return true }
        // A wait inside the store (for a connection) was cancelled while the request itself
        // was not: during an outage, PostgresNIO gives up pending work this way.
        if error is CancellationError, !Task.isCancelled { return true }
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED }
        return false
    }
}
