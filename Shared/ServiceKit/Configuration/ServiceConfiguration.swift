import Codecs
import Foundation
import Logging

/// Everything a service reads from its environment, validated at start.
///
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMMONS_HOST` | `127.0.0.1` | address to listen on |
/// | `COMMONS_PORT` | the service's own (8081–8085) | port to listen on |
/// | `COMMONS_EVENT_STORE` | `<data dir>/events.sqlite` | `postgres://…` URL or SQLite path |
/// | `COMMONS_DATA_DIR` | `.commons` | read models and local files |
/// | `COMMONS_ACCOUNTS_URL` | `http://127.0.0.1:8081` | where the public keys are |
/// | `COMMONS_LOG_LEVEL` | `info` | trace, debug, info, notice, warning, error, critical |
/// | `COMMONS_LOG_FORMAT` | `json` | `json` (one object a line) or `text` (one readable line a request; `commons up` at a terminal) |
/// | `COMMONS_LOG_PROBES` | `hide` | `show` or `hide` health checks and metrics scrapes in the `text` format (`json` has them all) |
/// | `COMMONS_RATE_LIMIT_PER_MINUTE` | `600` | requests per client address and per account |
/// | `COMMONS_TRUSTED_PROXIES` | `127.0.0.1,::1` | peers whose `X-Forwarded-For` names the client (the gateway) |
/// | `COMMONS_MIN_POSITION_PATIENCE_MS` | `2000` | how long a read with `Commons-Min-Position` waits before 503 |
/// | `COMMONS_REQUEST_DEADLINE_SECONDS` | `30` | a request without its answer by then is cancelled with 503 (event streams excepted) |
/// | `COMMONS_PEERS` | none | the replicas of this service, as base URLs whose hosts may name several (`http://listings:8082`) |
/// | `COMMONS_SHUTDOWN_DRAIN_SECONDS` | `3` | how long a stopping service keeps answering, with `Connection: close`, before it stops listening |
/// | `COMMONS_SNAPSHOT_SOURCE` | none | a peer's URL or a snapshot file to start from when the data directory has no read model |
public struct ServiceConfiguration: Sendable {
    public var service: String
    public var host: String
    public var port: Int
    public var eventStore: EventStoreLocation
    public var dataDirectory: String
    public var accountsURL: String
    public var logLevel: Logger.Level
    public var logFormat: LogFormat
    /// Whether the `text` log shows health checks and metrics scrapes.
    public var logsProbes: Bool
    public var rateLimitPerMinute: Int
    /// Requests a minute per client address to each credential route (sign-in, registration, password reset).
    public var credentialRateLimitPerMinute: Int
    /// Peers (the gateway) whose `X-Forwarded-For` is believed when telling clients apart.
    public var trustedProxies: Set<String>
    /// How long a request may take to produce its answer (not to stream its body).
    public var requestDeadline: Duration
    /// How long the service waits at start for a PostgreSQL that is not up yet, before it
    /// exits 1 for its supervisor to start it again (`COMMONS_STARTUP_PATIENCE_SECONDS`, 300).
    public var startupPatience: Duration
    /// How long a read with `Commons-Min-Position` waits for the projections
    /// (`COMMONS_MIN_POSITION_PATIENCE_MS`, 2000) before it answers 503.
    public var readYourWritesPatience: Duration
    /// Where the replicas of this service are, this one included: each URL's host may name
    /// several addresses (a name that DNS answers with every replica). Empty: this one only.
    public var peers: [URL]
    /// How long a service that got SIGTERM or SIGINT drains (``ShutdownDrain``) before it stops.
    public var shutdownDrain: Duration
    /// Where a replica with no read model takes a snapshot from at start; nil rebuilds from the log.
    public var snapshotSource: SnapshotSource?
    /// The whole environment, for service-specific settings.
    public var environment: EnvironmentVariables

    public init(service: String, defaultPort: Int, environment: EnvironmentVariables = EnvironmentVariables()) throws {
        self.service = service
        self.environment = environment
        host = environment.string("COMMONS_HOST", default: "127.0.0.1")
        port = try environment.integer("COMMONS_PORT", default: defaultPort, in: 0...65_535)
        dataDirectory = environment.dataDirectory
        eventStore = environment.eventStore
        accountsURL = environment.string("COMMONS_ACCOUNTS_URL", default: "http://127.0.0.1:8081")
        guard let url = URL(string: accountsURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ConfigurationError(key: "COMMONS_ACCOUNTS_URL", problem: "'\(accountsURL)' is not an http(s) URL")
        }
        let level = environment.string("COMMONS_LOG_LEVEL", default: "info")
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw ConfigurationError(
                key: "COMMONS_LOG_LEVEL", problem: "'\(level)' is not one of trace, debug, info, notice, warning, error, critical")
        }
        self.logLevel = logLevel
        let format = environment.string("COMMONS_LOG_FORMAT", default: LogFormat.json.rawValue)
        guard let logFormat = LogFormat(rawValue: format) else {
            throw ConfigurationError(key: "COMMONS_LOG_FORMAT", problem: "'\(format)' is not one of json, text")
        }
        self.logFormat = logFormat
        let probes = environment.string("COMMONS_LOG_PROBES", default: "hide")
        guard probes == "show" || probes == "hide" else {
            throw ConfigurationError(key: "COMMONS_LOG_PROBES", problem: "'\(probes)' is not one of show, hide")
        }
        logsProbes = probes == "show"
        rateLimitPerMinute = try environment.integer("COMMONS_RATE_LIMIT_PER_MINUTE", default: 600, in: 1...1_000_000)
        credentialRateLimitPerMinute = try environment.integer("COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE", default: 10, in: 1...1_000_000)
        requestDeadline = .seconds(try environment.integer("COMMONS_REQUEST_DEADLINE_SECONDS", default: 30, in: 1...3_600))
        readYourWritesPatience = .milliseconds(try environment.integer("COMMONS_MIN_POSITION_PATIENCE_MS", default: 2_000, in: 10...60_000))
        startupPatience = .seconds(try environment.integer("COMMONS_STARTUP_PATIENCE_SECONDS", default: 300, in: 1...86_400))
        peers = try environment.string("COMMONS_PEERS", default: "").split(separator: ",").map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.map { text in
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw ConfigurationError(key: "COMMONS_PEERS", problem: "'\(text)' is not an http(s) base URL")
                }
                return url
            }
        shutdownDrain = .seconds(try environment.integer("COMMONS_SHUTDOWN_DRAIN_SECONDS", default: 3, in: 0...300))
        let source = environment.string("COMMONS_SNAPSHOT_SOURCE", default: "")
        if source.isEmpty {
            snapshotSource = nil
        } else if let parsed = SnapshotSource(source) {
            snapshotSource = parsed
        } else {
            throw ConfigurationError(
                key: "COMMONS_SNAPSHOT_SOURCE", problem: "'\(source)' is neither a peer's http(s) URL nor a file (an absolute path or file:// URL)")
        }
        trustedProxies = Set(
            environment.string("COMMONS_TRUSTED_PROXIES", default: "127.0.0.1,::1")
                .split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty })
    }
}
