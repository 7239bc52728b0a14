import Foundation
import ServiceKit
import StackKit

/// What `commons up` runs, worked out before anything starts: which services have an
/// executable, on which ports, and the environment each child gets.
struct UpPlan {
    /// A service that will run.
    struct Running: Sendable {
        let name: String
        let port: Int
        let executable: String
        var url: String { "http://\(UpPlan.host):\(port)" }
    }

    /// A service whose executable does not exist (yet).
    struct Skipped {
        let name: String
        let executable: String
    }

    /// Where everything listens; the stack is for this machine only.
    static let host = "127.0.0.1"

    let running: [Running]
    let skipped: [Skipped]
    let gatewayPort: Int
    /// Absolute, so that the printed paths and every child agree on it.
    let dataDirectory: String
    /// What the children get as `COMMONS_EVENT_STORE`.
    let eventStore: String
    /// What the children get, apart from their own `COMMONS_PORT`.
    private let environment: [String: String]

    /// - Parameters:
    ///   - dataDirectory: `--data-dir`, else `COMMONS_DATA_DIR`, else `.commons`.
    ///   - executables: the directory of the service executables (that of `commons`).
    ///   - environment: what the children inherit.
    ///   - logsForPeople: whether the output is a terminal: the children then log readable
    ///     lines (`COMMONS_LOG_FORMAT=text`) unless the environment says otherwise.
    ///   - showProbes: whether those lines include health checks and metrics scrapes.
    init(
        dataDirectory: String?, gatewayPort: Int, portOffset: Int, executables: URL, environment: [String: String],
        logsForPeople: Bool = false, showProbes: Bool = false
    ) {
        let inherited = EnvironmentVariables(environment)
        self.dataDirectory = URL(fileURLWithPath: dataDirectory ?? inherited.dataDirectory).standardizedFileURL.path
        eventStore =
            inherited.string("COMMONS_EVENT_STORE")
            ?? URL(fileURLWithPath: self.dataDirectory).appendingPathComponent("events.sqlite").path
        self.gatewayPort = gatewayPort

        var running: [Running] = []
        var skipped: [Skipped] = []
        for service in ServiceTable.services {
            let executable = executables.appendingPathComponent(service.name).path
            if FileManager.default.isExecutableFile(atPath: executable) {
                running.append(Running(name: service.name, port: service.port + portOffset, executable: executable))
            } else {
                skipped.append(Skipped(name: service.name, executable: executable))
            }
        }
        self.running = running
        self.skipped = skipped

        let accountsPort = (ServiceTable.service(named: "accounts")?.port ?? 8081) + portOffset
        var environment = environment
        environment["COMMONS_EVENT_STORE"] = eventStore
        environment["COMMONS_DATA_DIR"] = self.dataDirectory
        environment["COMMONS_HOST"] = Self.host
        environment["COMMONS_ACCOUNTS_URL"] = "http://\(Self.host):\(accountsPort)"
        // accounts seals its signing keys with a secret from outside; a development stack
        // keeps it in its data directory (made by UpStack before accounts starts) unless it
        // is given. (The key vault's secret of an embedded log is kept beside the log.)
        for (variable, file) in Self.secretFiles(in: self.dataDirectory)
        where inherited.string(variable) == nil && inherited.string(variable + "_FILE") == nil {
            environment[variable + "_FILE"] = file
        }
        // A development stack takes the simulated processor's test cards; receipts say so.
        if inherited.string("COMMONS_PAYMENTS") == nil { environment["COMMONS_PAYMENTS"] = "simulated" }
        // One developer signs in as every demo person from one address.
        if inherited.string("COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE") == nil { environment["COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE"] = "120" }
        if logsForPeople, inherited.string("COMMONS_LOG_FORMAT") == nil { environment["COMMONS_LOG_FORMAT"] = "text" }
        if showProbes { environment["COMMONS_LOG_PROBES"] = "show" }
        // Its own gateway is not nginx and holds no idle connections to drain: Ctrl-C stops at once.
        if inherited.string("COMMONS_SHUTDOWN_DRAIN_SECONDS") == nil { environment["COMMONS_SHUTDOWN_DRAIN_SECONDS"] = "0" }
        self.environment = environment
    }

    /// The secrets a development stack keeps in its data directory, and where, unless the
    /// environment gives them (UpStack makes each file once).
    var secretFiles: [String] {
        Self.secretFiles(in: dataDirectory).filter { environment[$0.variable + "_FILE"] == $0.file }.map(\.file)
    }

    private static func secretFiles(in dataDirectory: String) -> [(variable: String, file: String)] {
        [("COMMONS_SIGNING_KEY_SECRET", "accounts-signing-secret")].map {
            ($0.0, URL(fileURLWithPath: dataDirectory).appendingPathComponent($0.1).path)
        }
    }

    /// What the stack's children share, for an operator command the stack runs itself.
    var sharedEnvironment: EnvironmentVariables { EnvironmentVariables(environment) }

    /// The environment of `service`'s child.
    func environment(for service: Running) -> [String: String] {
        var environment = environment
        environment["COMMONS_PORT"] = String(service.port)
        return environment
    }

    var gatewayURL: String { "http://\(Self.host):\(gatewayPort)" }

    /// The event log, as a line may show it (without a password).
    var eventStoreDescription: String {
        EventStoreLocation(eventStore, dataDirectory: dataDirectory).description
    }

    /// Whether the demo data was created in this data directory already.
    var seededMarker: URL { URL(fileURLWithPath: dataDirectory).appendingPathComponent("seeded") }

    /// The directory of the running `commons` executable, where the services are built too.
    static func executablesDirectory() throws -> URL {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
}
