import EventLog
import EventLogPostgres
import EventLogSQLite
import Foundation
import Logging

/// Which event log a process uses, from `COMMONS_EVENT_STORE`: a `postgres://` URL, or a
/// SQLite file path. Unset, it is `<COMMONS_DATA_DIR>/events.sqlite`.
public enum EventStoreLocation: Sendable, Hashable, CustomStringConvertible {
    case postgres(url: String)
    case sqlite(path: String)

    /// Reads `value` (a URL or a path); nil or empty means the SQLite file under `dataDirectory`.
    public init(_ value: String?, dataDirectory: String) {
        guard let value, !value.isEmpty else {
            self = .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("events.sqlite").path)
            return
        }
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            self = .postgres(url: value)
        } else {
            self = .sqlite(path: value)
        }
    }

    /// Opens the log (migrating it) or throws a ``ConfigurationError`` that says what is wrong.
    /// A PostgreSQL that is not up yet is waited for up to `startupPatience`, then reported
    /// as ``PostgresNotReachable`` (an outage, not a configuration error). With
    /// `hearsEveryCategory` false, a PostgreSQL log hears other processes' appends only to
    /// the categories its readers ask about (see `PostgresEventStoreConfiguration`).
    public func open(logger: Logger, startupPatience: Duration = .seconds(10), hearsEveryCategory: Bool = true) async throws -> any EventStore {
        switch self {
        case .postgres(let url):
            var configuration: PostgresEventStoreConfiguration
            do {
                configuration = try PostgresEventStoreConfiguration(url: url)
            } catch {
                throw ConfigurationError(key: "COMMONS_EVENT_STORE", problem: "\(error)")
            }
            configuration.startupPatience = startupPatience
            configuration.hearsEveryCategory = hearsEveryCategory
            do {
                return try await PostgresEventStore(configuration: configuration, logger: logger)
            } catch let error as PostgresNotReachable {
                throw error
            } catch {
                throw ConfigurationError(
                    key: "COMMONS_EVENT_STORE", problem: "cannot open the PostgreSQL event log at \(redacted): \(Self.describe(error))")
            }
        case .sqlite(let path):
            do {
                return try SQLiteEventStore(path: path)
            } catch {
                throw ConfigurationError(key: "COMMONS_EVENT_STORE", problem: "cannot open the SQLite event log at \(path): \(error)")
            }
        }
    }

    /// The location with any password hidden, for logs.
    public var description: String { redacted }

    private var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(reflecting: error)
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
