import ArgumentParser
import Foundation
import StackKit

/// `commons up`: every service that is built, as child processes, with a gateway in front
/// of them and demo data on first start, until interrupted.
struct Up: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run every built service behind one gateway, until interrupted.",
        discussion: """
            Starts each service executable found beside `commons` (one not built yet is skipped), \
            restarts any that crashes, serves them all through a gateway on one port, and on the \
            first start in a data directory creates demo data with `commons seed`. \
            Ctrl-C or SIGTERM stops everything.

            The services share COMMONS_EVENT_STORE if it is set (e.g. a postgres:// URL), else the \
            SQLite log <data dir>/events.sqlite. The rest of the environment passes through to them.
            """)

    @Option(
        help: ArgumentHelp(
            "Where the event log, read models and local files go.",
            discussion: "Default: COMMONS_DATA_DIR, else ./.commons.", valueName: "directory"))
    var dataDir: String?

    @Option(help: "The gateway's port.")
    var gatewayPort = 8080

    @Option(help: "Added to every service's own port (8081-8085), e.g. to run a second stack.")
    var portOffset = 0

    @Flag(help: "Do not create demo data on the first start.")
    var noSeed = false

    @Flag(
        help: ArgumentHelp(
            "Show health checks and metrics scrapes in the services' readable log.",
            discussion:
                "At a terminal the services log one readable line per request (COMMONS_LOG_FORMAT=text) and leave out the probes the stack polls every few seconds."
        ))
    var showProbes = false

    func validate() throws {
        guard (1...65_535).contains(gatewayPort) else { throw ValidationError("--gateway-port must be from 1 to 65535") }
        guard ServiceTable.services.allSatisfy({ (1...65_535).contains($0.port + portOffset) }) else {
            throw ValidationError("--port-offset \(portOffset) puts service ports outside 1-65535")
        }
    }

    func run() async throws {
        let plan = UpPlan(
            dataDirectory: dataDir, gatewayPort: gatewayPort, portOffset: portOffset,
            executables: try UpPlan.executablesDirectory(), environment: ProcessInfo.processInfo.environment,
            logsForPeople: isatty(STDOUT_FILENO) == 1, showProbes: showProbes)
        try await UpStack(plan: plan, seed: !noSeed).run()
    }
}
