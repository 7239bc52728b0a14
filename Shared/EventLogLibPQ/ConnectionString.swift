import EventLogPostgres

extension PostgresEventStoreConfiguration {
    /// The configuration as a libpq connection string: server, credentials, `sslmode` and
    /// `sslrootcert` as libpq reads them, and the session's `search_path` (the log's schema,
    /// unless `searchPath` is false), idle-in-transaction timeout and application name.
    ///
    /// Keepalives and `tcp_user_timeout` make a connection whose server vanished without a
    /// word (a cable, a firewall) fail within seconds rather than wait for TCP's minutes, so
    /// that a statement on it answers an error instead of hanging.
    func libpqConnectionString(searchPath: Bool = true) -> String {
        let timeout = idleInTransactionTimeout.components
        let milliseconds = timeout.seconds * 1000 + timeout.attoseconds / 1_000_000_000_000_000
        var options = "-c idle_in_transaction_session_timeout=\(milliseconds)"
        if searchPath { options += " -c search_path=\(schema)" }
        var pairs: [(String, String)] = [
            ("host", host), ("port", String(port)), ("user", username), ("dbname", database), ("sslmode", tls.rawValue),
            ("application_name", "commons"), ("options", options), ("connect_timeout", "10"), ("keepalives", "1"),
            ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
        ]
        if let password { pairs.append(("password", password)) }
        if let certificateAuthorityFile { pairs.append(("sslrootcert", certificateAuthorityFile)) }
        return pairs.map { "\($0.0)=\(Self.quoted($0.1))" }.joined(separator: " ")
    }

    /// A value in single quotes, its quotes and backslashes escaped, as libpq reads them.
    private static func quoted(_ value: String) -> String {
        var quoted = "'"
        for character in value {
            if character == "'" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }
}
