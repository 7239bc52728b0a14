import CLibPQ
import Foundation

/// A failure that libpq or the server reported, with PostgreSQL's own words: the SQL state
/// and constraint of a statement's error, or why a connection failed or was lost.
public struct LibPQError: Error, CustomStringConvertible, Sendable {
    /// The SQLSTATE code (`23505`, `CE001`, …); nil when the connection failed rather than the statement.
    public let sqlState: String?
    public let message: String
    /// The detail line, when the server gave one (`replayed_append` puts its count there).
    public let detail: String?
    /// The constraint a statement violated, when it did.
    public let constraint: String?

    public var description: String {
        guard let sqlState else { return "PostgreSQL (libpq): \(message)" }
        return "PostgreSQL \(sqlState): \(message)"
    }

    /// Whether the connection failed or was lost (the statement may or may not have run),
    /// rather than the server refusing the statement.
    public var isConnectionFailure: Bool { sqlState == nil || sqlState?.hasPrefix("08") == true || sqlState == "57P01" }

    init(sqlState: String?, message: String, detail: String? = nil, constraint: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
    }

    /// The error of a failed result.
    init(result: OpaquePointer) {
        func field(_ code: UInt8) -> String? {
            PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
        }
        let message = field(UInt8(ascii: "M")) ?? String(cString: PQresultErrorMessage(result))
        self.init(
            sqlState: field(UInt8(ascii: "C")), message: message, detail: field(UInt8(ascii: "D")),
            constraint: field(UInt8(ascii: "n")))
    }

    /// The connection's last error (a failed connect, a lost connection).
    init(connection: OpaquePointer?, _ what: String) {
        let text = connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(sqlState: nil, message: trimmed.isEmpty ? what : "\(what): \(trimmed)")
    }

    /// The store has been shut down.
    static let closed = LibPQError(sqlState: nil, message: "the event store has been shut down")
}
