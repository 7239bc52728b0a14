import Foundation
import PostgresNIO

/// Where and how the PostgreSQL event log connects.
public struct PostgresEventStoreConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// The schema that holds the log's table (default `commons`). Tests use one each.
    public var schema: String
    /// Pool size; appenders beyond it wait for a connection.
    public var maximumConnections: Int
    /// How often subscribers poll when no notification wakes them (default 500 ms).
    public var pollInterval: Duration
    /// Sessions that sit idle inside a transaction longer than this are ended by the
    /// server, because an open transaction holds back delivery to every reader.
    public var idleInTransactionTimeout: Duration

    public init(
        host: String = "127.0.0.1", port: Int = 5432, username: String = "postgres", password: String? = nil,
        database: String = "postgres", schema: String = "commons", maximumConnections: Int = 16,
        pollInterval: Duration = .milliseconds(500), idleInTransactionTimeout: Duration = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
        self.maximumConnections = maximumConnections
        self.pollInterval = pollInterval
        self.idleInTransactionTimeout = idleInTransactionTimeout
    }

    /// Reads `postgres://user:password@host:port/database?schema=name`.
    /// Everything but the host is optional; `schema` defaults to `commons`.
    public init(url text: String) throws {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql",
              let host = url.host, !host.isEmpty
        else { throw PostgresConfigurationError("'\(text)' is not a postgres://user@host:port/database URL") }
        self.init(host: host)
        if let port = url.port { self.port = port }
        if let user = url.user, !user.isEmpty { username = user.removingPercentEncoding ?? user }
        password = url.password?.removingPercentEncoding
        let path = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        database = path.isEmpty ? username : path
        if let schema = url.queryItems?.first(where: { $0.name == "schema" })?.value { self.schema = schema }
        try validate()
    }

    /// Throws when the schema is not a plain lowercase SQL identifier (it is spliced into DDL).
    public func validate() throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        guard let first = schema.first, first.isLetter || first == "_", schema.count <= 40, schema.allSatisfy(allowed.contains)
        else { throw PostgresConfigurationError("schema '\(schema)' must be a lowercase identifier of at most 40 characters") }
    }

    var connection: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    var client: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    private var startupParameters: [(String, String)] {
        let milliseconds = idleInTransactionTimeout.components.seconds * 1000
            + idleInTransactionTimeout.components.attoseconds / 1_000_000_000_000_000
        return [("idle_in_transaction_session_timeout", String(milliseconds)), ("application_name", "commons")]
    }
}

/// A configuration value that cannot work, with one line saying why.
public struct PostgresConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
