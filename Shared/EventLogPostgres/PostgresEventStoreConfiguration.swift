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
    /// Single-event appends that run at once, each in its own statement (default 2). Those
    /// that arrive while all run wait, and go together in one statement and one commit when
    /// one finishes (group commit); see `AppendGrouper`.
    public var concurrentAppends: Int = 2
    /// Connections of the store's own, beside the pool, on which its prepared statements run
    /// when one is free (default 4; 0 runs everything on the pool); see `StatementConnections`.
    public var statementConnections: Int = 4
    /// Whether the store hears every other process's appends (default), or only those to
    /// the categories its readers have asked about, so that a process following a few
    /// categories is not woken for every append to the rest (what the services do). A reader
    /// that waits for every category then wakes for those categories' appends, its own
    /// process's, and its poll.
    public var hearsEveryCategory = true
    /// How often subscribers poll when no notification wakes them (default 500 ms).
    public var pollInterval: Duration
    /// Sessions that sit idle inside a transaction longer than this are ended by the
    /// server, because an open transaction holds back delivery to every reader.
    public var idleInTransactionTimeout: Duration
    /// Whether and how the connection is encrypted (`sslmode` in the URL; default `disable`).
    public var tls: PostgresTLSMode = .disable
    /// The CA certificates (PEM) that `verify-ca` and `verify-full` trust (`sslrootcert`);
    /// without it, the system's roots.
    public var certificateAuthorityFile: String?
    /// How long opening the store waits for a server that is not up yet (refusing
    /// connections, starting, recovering) before giving up with ``PostgresNotReachable``.
    /// A command-line tool wants an answer soon; a service waits longer (see
    /// `COMMONS_STARTUP_PATIENCE_SECONDS`).
    public var startupPatience: Duration = .seconds(10)

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

    /// Reads `postgres://user:password@host:port/database?schema=name&sslmode=mode&sslrootcert=path`.
    /// Everything but the host is optional; `schema` defaults to `commons`, `sslmode` to
    /// `disable` (libpq's names: `disable`, `prefer`, `require`, `verify-ca`, `verify-full`).
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
        let items = url.queryItems ?? []
        if let schema = items.first(where: { $0.name == "schema" })?.value { self.schema = schema }
        if let mode = items.first(where: { $0.name == "sslmode" })?.value {
            guard let tls = PostgresTLSMode(rawValue: mode) else {
                throw PostgresConfigurationError(
                    "sslmode '\(mode)' is not one of \(PostgresTLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.tls = tls
        }
        if let file = items.first(where: { $0.name == "sslrootcert" })?.value, !file.isEmpty { certificateAuthorityFile = file }
        let known: Set = ["schema", "sslmode", "sslrootcert"]
        if let unknown = items.first(where: { !known.contains($0.name) }) {
            throw PostgresConfigurationError("the URL parameter '\(unknown.name)' is not one of schema, sslmode, sslrootcert")
        }
        try validate()
    }

    /// Throws when the schema is not a plain lowercase SQL identifier (it is spliced into DDL),
    /// or a CA file is named that cannot be read.
    public func validate() throws {
        if let certificateAuthorityFile {
            guard tls.verifiesCertificate else {
                throw PostgresConfigurationError("sslrootcert needs sslmode=verify-ca or verify-full (sslmode is \(tls.rawValue))")
            }
            guard FileManager.default.isReadableFile(atPath: certificateAuthorityFile) else {
                throw PostgresConfigurationError("sslrootcert '\(certificateAuthorityFile)' is not a readable file")
            }
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        guard let first = schema.first, first.isLetter || first == "_", schema.count <= 40, schema.allSatisfy(allowed.contains)
        else { throw PostgresConfigurationError("schema '\(schema)' must be a lowercase identifier of at most 40 characters") }
    }

    /// The TLS settings of `sslmode` and `sslrootcert`; nil for `disable`.
    var tlsConfiguration: TLSConfiguration? {
        guard tls != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification =
            switch tls {
            case .disable, .prefer, .require: .none
            case .verifyCA: .noHostnameVerification
            case .verifyFull: .fullVerification
            }
        if let certificateAuthorityFile { configuration.trustRoots = .file(certificateAuthorityFile) }
        return configuration
    }

    /// One connection's settings (server, credentials, TLS, session parameters); with
    /// `searchPath`, its session looks in ``schema`` first, as the pool's do.
    public func connection(searchPath: Bool = false) throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS =
            switch (tls, tlsConfiguration) {
            case (.prefer, let settings?): .prefer(try NIOSSLContext(configuration: settings))
            case (_, let settings?): .require(try NIOSSLContext(configuration: settings))
            case (_, nil): .disable
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        configuration.options.additionalStartupParameters = startupParameters + (searchPath ? [("search_path", schema)] : [])
        return configuration
    }

    /// The pool's settings: server, credentials, TLS, size and session parameters, with
    /// `search_path` set to ``schema``.
    public var clientConfiguration: PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS =
            switch (tls, tlsConfiguration) {
            case (.prefer, let settings?): .prefer(settings)
            case (_, let settings?): .require(settings)
            case (_, nil): .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        configuration.options.maximumConnections = maximumConnections
        // The log's prepared statements name its objects without a schema (a statement's
        // text is fixed per type), so the pool's sessions look in the log's schema; the
        // system catalog still comes first, as always.
        configuration.options.additionalStartupParameters = startupParameters + [("search_path", schema)]
        return configuration
    }

    private var startupParameters: [(String, String)] {
        let milliseconds =
            idleInTransactionTimeout.components.seconds * 1000
            + idleInTransactionTimeout.components.attoseconds / 1_000_000_000_000_000
        return [("idle_in_transaction_session_timeout", String(milliseconds)), ("application_name", "commons")]
    }
}

/// libpq's `sslmode`, as far as PostgresNIO can honour it: `allow` (plain first, TLS if
/// refused) is not offered.
public enum PostgresTLSMode: String, Sendable, CaseIterable {
    /// Plain TCP.
    case disable
    /// TLS when the server offers it, unverified; plain otherwise.
    case prefer
    /// TLS or nothing; the certificate is not checked (as libpq without a root certificate).
    case require
    /// TLS with a certificate signed by a trusted CA, for any host name.
    case verifyCA = "verify-ca"
    /// TLS with a certificate signed by a trusted CA and issued for the host connected to.
    case verifyFull = "verify-full"

    var verifiesCertificate: Bool { self == .verifyCA || self == .verifyFull }
}

/// A configuration value that cannot work, with one line saying why.
public struct PostgresConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
