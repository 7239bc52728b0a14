import CommonsClient
import EventLogTestSupport
import Foundation
import Spawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The production topology on this machine, started by the process that uses it (the
/// end-to-end suite, `commons bench topology`): the
/// service executables that `swift build` / `swift test` put in `.build/debug` (or
/// `COMMONS_E2E_BIN_DIR`), each on a free port with the environment `docker-compose.yml`
/// gives it, on the PostgreSQL of `COMMONS_E2E_POSTGRES_URL`, else `COMMONS_TEST_POSTGRES_URL`
/// (a fresh database in it), behind
/// a gateway. Everything it starts is stopped at the end.
///
/// The gateway is, in this order of preference:
/// 1. **Debian's nginx with `deploy/nginx.conf`** (as rewritten by `scripts/gateway-conf.sh`,
///    the same copy `scripts/run-topology.sh` runs, with the services' ports swapped for the
///    free ones chosen here): the production gateway, request-size limits and all.
/// 2. When nginx is not installed: **`commons up`'s built-in gateway**
///    (`commons up --no-seed --gateway-port N --port-offset M --data-dir D`, with
///    `COMMONS_EVENT_STORE` on the PostgreSQL). `commons up` restarts a killed child itself.
///
/// Which one ran is printed at start and is ``gateway``.
///
/// With `replicas` above 1 (nginx only), every service runs that many processes, each with
/// its own port and data directory (its own read model) on the one log, and nginx spreads
/// requests over them as over Docker's replicas: each replica is a server of its service's
/// `upstream` group.
package actor Topology {
    package enum Service: String, CaseIterable, Sendable {
        case accounts, listings, geoSearch = "geo-search", donations, shoppingLists = "shopping-lists"

        /// The port in docker-compose.yml (and `commons up`'s default).
        package var composePort: Int {
            switch self {
            case .accounts: 8081
            case .listings: 8082
            case .geoSearch: 8083
            case .donations: 8084
            case .shoppingLists: 8085
            }
        }
    }

    package enum Gateway: String, Sendable { case nginx, commonsUp = "commons up" }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    package nonisolated let root: URL
    package nonisolated let binDirectory: URL
    package nonisolated let gateway: Gateway
    package nonisolated let gatewayURL: URL
    /// An admin, made as an operator makes one (`commons accounts create-admin --password-stdin`),
    /// with ``adminPassword``.
    package nonisolated let adminEmail: String
    package nonisolated let adminPassword = "admin-\(UUID().uuidString)"
    package nonisolated let runDirectory: URL
    /// The services whose executables were found and started.
    package nonisolated let started: Set<Service>
    /// How many processes each service runs.
    package nonisolated let replicas: Int
    /// Each service's ports, one a replica.
    private nonisolated let ports: [Service: [Int]]
    private var children: [Instance: SpawnedProcess] = [:]
    private var environments: [Instance: [String: String]] = [:]

    /// One process of a service.
    package struct Instance: Hashable, Sendable {
        package var service: Service
        package var replica: Int
        /// Its log's and data directory's name: the service's, with the replica after the first.
        package var name: String { replica == 0 ? service.rawValue : "\(service.rawValue)-\(replica + 1)" }
    }
    private var gatewayProcess: SpawnedProcess?
    /// Kills what this run started if the test process dies without stopping it (a crash).
    private var watchdog: SpawnedProcess?
    /// The database made for this run, dropped at the end: (server URL, name).
    private var database: (server: String, name: String)?
    /// The run's log (`COMMONS_EVENT_STORE` of every service).
    package private(set) var eventStoreURL = ""
    /// A PostgreSQL of the run's own, which a test may stop and start (see ``start(replicas:ownPostgres:)``).
    private var cluster: ThrowawayPostgres?
    /// The gateway's requests a second per client address, when not deploy/nginx.conf's.
    private var perClientRate: Int?

    private init(
        root: URL, binDirectory: URL, gateway: Gateway, gatewayPort: Int, adminEmail: String, runDirectory: URL,
        started: Set<Service>, ports: [Service: [Int]]
    ) {
        self.root = root
        self.binDirectory = binDirectory
        self.gateway = gateway
        gatewayURL = URL(string: "http://127.0.0.1:\(gatewayPort)")!
        self.adminEmail = adminEmail
        self.runDirectory = runDirectory
        self.started = started
        self.ports = ports
        replicas = ports.values.map(\.count).max() ?? 1
    }

    // MARK: Finding things

    /// The repository: three levels above this file.
    package static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `COMMONS_E2E_BIN_DIR`, else the `.build/debug` that `swift test` built into; that one is
    /// found from this test bundle's own location first (it runs from there), then from the
    /// repository.
    package static func binDirectory(root: URL) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["COMMONS_E2E_BIN_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        var candidate = Bundle.main.bundleURL
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("accounts").path) { return candidate }
            candidate.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug")
    }

    package nonisolated func executable(_ service: Service) -> URL { binDirectory.appendingPathComponent(service.rawValue) }

    /// Fails with what to do when a service the test drives has no executable.
    package nonisolated func require(_ services: Service...) throws {
        let missing = services.filter { !started.contains($0) }
        guard missing.isEmpty else {
            throw Failure(
                """
                this test needs \(missing.map(\.rawValue).joined(separator: ", ")), whose executable is not in \(binDirectory.path) \
                (build it: swift build --product \(missing[0].rawValue); or set COMMONS_E2E_BIN_DIR)
                """)
        }
    }

    // MARK: Starting

    /// Starts the topology; with `ownPostgres`, on a throwaway PostgreSQL cluster of its own
    /// that ``stopPostgres()`` and ``startPostgres()`` can take away and bring back.
    /// `settings` are values docker-compose.yml reads from the environment, over this run's
    /// defaults (below). `perClientRate` replaces the gateway's flood guard of 50 requests a
    /// second per address: a benchmark sends everything from 127.0.0.1, where real clients
    /// each have their own address.
    package static func start(
        replicas: Int = 1, ownPostgres: Bool = false, settings: [String: String] = [:],
        perClientRate: Int? = nil
    ) async throws -> Topology {
        let environment = ProcessInfo.processInfo.environment
        let cluster = ownPostgres ? try await ThrowawayPostgres.start() : nil
        // A cluster of its own when there is one (scripts/with-postgres.sh makes it): other
        // suites' open transactions would hold back the visibility horizon of a shared one.
        guard
            let postgres = [cluster?.url, environment["COMMONS_E2E_POSTGRES_URL"], environment["COMMONS_TEST_POSTGRES_URL"]]
                .compactMap({ $0 }).first(where: { !$0.isEmpty })
        else {
            throw Failure("set COMMONS_TEST_POSTGRES_URL, e.g. scripts/with-postgres.sh swift test --filter EndToEndTests")
        }
        let root = repositoryRoot
        let bin = binDirectory(root: root)
        let found = Set(Service.allCases.filter { FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent($0.rawValue).path) })
        guard found.contains(.accounts) else {
            throw Failure("no accounts executable in \(bin.path): run swift build first, or set COMMONS_E2E_BIN_DIR")
        }
        let run = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("commons-e2e-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let (database, databaseName) = try await freshDatabase(in: postgres)
        let admin = "admin-\(UUID().uuidString.prefix(8).lowercased())@e2e.commons.test"
        // Values docker-compose.yml reads from the environment (`${VAR:-default}`), set here as
        // an operator would: a cheap bcrypt cost for speed, an admin, no rate limit in the way.
        func secret() -> String { Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString() }
        let composeInputs = [
            "COMMONS_BCRYPT_COST": "4", "COMMONS_SIGNING_KEY_SECRET": secret(), "COMMONS_KEY_VAULT_SECRET": secret(),
            "COMMONS_RATE_LIMIT_PER_MINUTE": "100000", "COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE": "100000", "COMMONS_LOG_LEVEL": "info",
            "COMMONS_PAYMENTS": "simulated",
            // Required by the compose file; unused, as COMMONS_EVENT_STORE is replaced.
            "POSTGRES_PASSWORD": "unused",
        ].merging(settings) { $1 }

        let nginx = findNginx()
        if nginx == nil, environment["COMMONS_E2E_GATEWAY"] == "nginx" {
            throw Failure("COMMONS_E2E_GATEWAY=nginx, but no nginx executable is on PATH, /usr/sbin or /usr/local/sbin")
        }
        if let nginx {
            var ports: [Service: [Int]] = [:]
            for service in Service.allCases { ports[service] = try (0..<replicas).map { _ in try FreePorts.pick() } }
            let gatewayPort = try FreePorts.pick()
            let topology = Topology(
                root: root, binDirectory: bin, gateway: .nginx, gatewayPort: gatewayPort, adminEmail: admin,
                runDirectory: run, started: found, ports: ports)
            try await topology.owns(databaseName.map { (postgres, $0) }, url: database, cluster: cluster)
            await topology.limitEachClient(to: perClientRate)
            Self.announce("nginx gateway on \(topology.gatewayURL), services \(found.map(\.rawValue).sorted()), run dir \(run.path)")
            do {
                try await topology.startServices(composeInputs: composeInputs, postgres: database)
                try await topology.startNginx(nginx)
                try await topology.waitUntilReady(Array(found))
                try await topology.createAdmin(environment: try topology.environment(of: Instance(service: .accounts, replica: 0)))
            } catch {
                await topology.stop()
                throw error
            }
            return topology
        }

        guard replicas == 1 else { throw Failure("replicas need nginx (apt-get install nginx-light); commons up runs one of each") }
        let offset = try FreePorts.offset(for: Service.allCases.map(\.composePort))
        let gatewayPort = try FreePorts.pick()
        var ports: [Service: [Int]] = [:]
        for service in Service.allCases { ports[service] = [service.composePort + offset] }
        let topology = Topology(
            root: root, binDirectory: bin, gateway: .commonsUp, gatewayPort: gatewayPort, adminEmail: admin,
            runDirectory: run, started: found, ports: ports)
        try await topology.owns(databaseName.map { (postgres, $0) }, url: database, cluster: cluster)
        Self.announce("no nginx; commons up's gateway on \(topology.gatewayURL), services \(found.map(\.rawValue).sorted())")
        do {
            try await topology.startCommonsUp(offset: offset, gatewayPort: gatewayPort, inputs: composeInputs, postgres: database)
            try await topology.waitUntilReady(Array(found))
            var environment = ProcessInfo.processInfo.environment.merging(composeInputs) { $1 }
            environment["COMMONS_EVENT_STORE"] = database
            environment["COMMONS_DATA_DIR"] = run.appendingPathComponent("data/accounts").path
            try await topology.createAdmin(environment: environment)
        } catch {
            await topology.stop()
            throw error
        }
        return topology
    }

    private func owns(_ database: (server: String, name: String)?, url: String, cluster: ThrowawayPostgres?) throws {
        self.database = database
        eventStoreURL = url
        self.cluster = cluster
        try startWatchdog()
    }

    private func startServices(composeInputs: [String: String], postgres: String) async throws {
        let compose = try await Self.composeEnvironments(root: root, inputs: composeInputs)
        // accounts first: the others fetch its public keys when they start.
        let order = [Service.accounts] + Service.allCases.filter { $0 != .accounts && started.contains($0) }
        for service in order {
            for replica in 0..<replicas {
                let instance = Instance(service: service, replica: replica)
                guard var environment = compose[service.rawValue] else { throw Failure("docker-compose.yml has no service \(service.rawValue)") }
                let data = runDirectory.appendingPathComponent("data/\(instance.name)")
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                // The values that name Docker things, replaced as scripts/run-topology.sh does.
                environment["COMMONS_EVENT_STORE"] = postgres
                environment["COMMONS_DATA_DIR"] = data.path
                environment["COMMONS_HOST"] = "127.0.0.1"
                environment["COMMONS_ACCOUNTS_URL"] = "http://127.0.0.1:\(port(.accounts))"
                environment["COMMONS_TRUSTED_PROXIES"] = "127.0.0.1"
                environment["COMMONS_PORT"] = String(port(service, replica: replica))
                environment["COMMONS_PEERS"] = (0..<replicas).map { "http://127.0.0.1:\(port(service, replica: $0))" }.joined(separator: ",")
                environment["COMMONS_SNAPSHOT_SOURCE"] = nil
                environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
                environments[instance] = environment
                try launch(instance)
                if service == .accounts { try await waitFor(instance, path: "/health/live") }
            }
        }
    }

    private func environment(of instance: Instance) throws -> [String: String] {
        guard let environment = environments[instance] else { throw Failure("\(instance.name) was not started") }
        return environment
    }

    /// Makes ``adminEmail`` an admin with ``adminPassword`` the way an operator does: the
    /// `commons accounts create-admin` command on the log, the password on its stdin.
    private func createAdmin(environment: [String: String]) async throws {
        let commons = binDirectory.appendingPathComponent("commons").path
        guard FileManager.default.isExecutableFile(atPath: commons) else {
            throw Failure("no commons executable in \(binDirectory.path) to make the admin with: build it (swift build --product commons)")
        }
        let passwordFile = runDirectory.appendingPathComponent("admin-password")
        try Data((adminPassword + "\n").utf8).write(to: passwordFile)
        defer { try? FileManager.default.removeItem(at: passwordFile) }
        let log = Self.log(named: "create-admin", in: runDirectory)
        let process = try SpawnedProcess(
            commons, ["accounts", "create-admin", adminEmail, "--password-stdin", "--name", "Admin"],
            environment: environment, stdin: .file(passwordFile.path), stdout: log, stderr: log)
        let status = await process.waitUntilExit()
        guard status == .exited(0) else {
            let output = (try? String(contentsOf: runDirectory.appendingPathComponent("create-admin.log"), encoding: .utf8)) ?? ""
            throw Failure("commons accounts create-admin \(status): \(output)")
        }
    }

    private func launch(_ instance: Instance) throws {
        let log = Self.log(named: instance.name, in: runDirectory)
        children[instance] = try SpawnedProcess(executable(instance.service).path, environment: environments[instance], stdout: log, stderr: log)
        recordPids()
    }

    /// Starts the watchdog: when this test process is gone, it kills every process whose id
    /// is in `pids` and removes the run directory, so a crashed run leaves nothing behind.
    private func startWatchdog() throws {
        watchdog = try OrphanWatchdog.start(pidsFile: runDirectory.appendingPathComponent("pids").path, removing: runDirectory.path)
    }

    private func recordPids() {
        let pids = (Array(children.values) + [gatewayProcess].compactMap { $0 }).filter(\.isRunning).map { String($0.processIdentifier) }
        try? pids.joined(separator: "\n").write(to: runDirectory.appendingPathComponent("pids"), atomically: true, encoding: .utf8)
    }

    private func limitEachClient(to rate: Int?) { perClientRate = rate }

    private func startNginx(_ nginx: String) async throws {
        let script = root.appendingPathComponent("scripts/gateway-conf.sh").path
        // Each service's upstream group has a server a replica, at the compose port, +100,
        // +200…, as scripts/run-topology.sh --replicas runs them.
        var conf = try await Self.output(
            of: "/bin/bash",
            [
                script, "--port", String(gatewayURL.port!), "--run-dir", runDirectory.path,
                "--replicas", String(replicas), root.appendingPathComponent("deploy/nginx.conf").path,
            ])
        for service in Service.allCases {
            // A service that is not running gets a port nothing listens on: 502, never another stack's service.
            for replica in 0..<replicas {
                let planned = "127.0.0.1:\(service.composePort + 100 * replica)"
                let chosen = "127.0.0.1:\(port(service, replica: replica))"
                conf = conf.replacingOccurrences(of: "server \(planned) ", with: "server \(chosen) ")
            }
        }
        if let perClientRate {
            let guardRate = "rate=50r/s;"
            guard conf.contains(guardRate) else { throw Failure("deploy/nginx.conf has no \(guardRate) flood guard to raise") }
            conf = conf.replacingOccurrences(of: guardRate, with: "rate=\(perClientRate)r/s;")
        }
        let file = runDirectory.appendingPathComponent("nginx.conf")
        try conf.write(to: file, atomically: true, encoding: .utf8)
        let prefix = runDirectory.path + "/"
        _ = try await Self.output(
            of: nginx, ["-t", "-q", "-p", prefix, "-e", "stderr", "-c", file.path, "-g", "pid \(runDirectory.path)/nginx.pid;"])
        let log = Self.log(named: "nginx", in: runDirectory)
        gatewayProcess = try SpawnedProcess(
            nginx, ["-p", prefix, "-e", "stderr", "-c", file.path, "-g", "pid \(runDirectory.path)/nginx.pid; daemon off;"],
            stdout: log, stderr: log)
        recordPids()
    }

    private func startCommonsUp(offset: Int, gatewayPort: Int, inputs: [String: String], postgres: String) async throws {
        let commons = binDirectory.appendingPathComponent("commons")
        guard FileManager.default.isExecutableFile(atPath: commons.path) else {
            throw Failure("no nginx and no commons executable in \(binDirectory.path): install nginx-light or build commons")
        }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(inputs) { $1 }
        environment["COMMONS_EVENT_STORE"] = postgres
        let log = Self.log(named: "commons-up", in: runDirectory)
        gatewayProcess = try SpawnedProcess(
            commons.path,
            [
                "up", "--no-seed", "--gateway-port", String(gatewayPort), "--port-offset", String(offset),
                "--data-dir", runDirectory.appendingPathComponent("data").path,
            ],
            environment: environment, stdout: log, stderr: log)
        recordPids()
    }

    // MARK: Readiness

    package nonisolated func port(_ service: Service, replica: Int = 0) -> Int { ports[service]![replica] }

    /// Every process of `service`.
    package nonisolated func instances(_ service: Service) -> [Instance] { (0..<replicas).map { Instance(service: service, replica: $0) } }

    /// Waits until each service says it is ready and answers through the gateway.
    package func waitUntilReady(_ services: [Service], patience: Duration = .seconds(180)) async throws {
        for service in services {
            for instance in instances(service) { try await waitFor(instance, path: "/health/ready", patience: patience) }
        }
        let deadline = ContinuousClock.now + patience
        while true {
            // A route of accounts through the gateway: 404 for an unknown id, from the service.
            if let status = await Self.status(gatewayURL.appendingPathComponent("v1/users/\(UUID().lowercasedText)")),
                ![502, 503, 504].contains(status)
            {
                return
            }
            guard ContinuousClock.now < deadline else { throw Failure("the gateway did not answer in time; see \(runDirectory.path)") }
            try await Task.sleep(for: .milliseconds(300))
        }
    }

    private func waitFor(_ instance: Instance, path: String, patience: Duration = .seconds(180)) async throws {
        let url = URL(string: "http://127.0.0.1:\(port(instance.service, replica: instance.replica))\(path)")!
        let deadline = ContinuousClock.now + patience
        while await Self.status(url) != 200 {
            if let child = children[instance], !child.isRunning {
                throw Failure("\(instance.name) exited (status \(child.terminationStatus)):\n\(tail(instance.service, replica: instance.replica))")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure("\(instance.name) not ready at \(url) in time:\n\(tail(instance.service, replica: instance.replica))")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// The last lines of a service's log.
    package nonisolated func tail(_ service: Service, replica: Int = 0, lines: Int = 15) -> String {
        let name = gateway == .nginx ? Instance(service: service, replica: replica).name : "commons-up"
        let text = (try? String(contentsOf: runDirectory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    package static func status(_ url: URL) async -> Int? {
        let transport = URLSessionTransport(timeout: 3)
        return try? await transport.send(HTTPRequestData(method: "GET", url: url, headers: ["User-Agent": "end-to-end"])).status
    }

    /// The process of a service (its first, or `replica`), when this topology started it
    /// itself (behind nginx; under `commons up` its supervisor does).
    package func processIdentifier(_ service: Service, replica: Int = 0) -> pid_t? {
        children[Instance(service: service, replica: replica)].map(\.processIdentifier)
    }

    // MARK: Killing and restarting

    /// Kills a service's process (its first, or `replica`) with SIGKILL (no chance to finish
    /// anything) and waits until it is gone.
    package func kill(_ service: Service, replica: Int = 0) async throws {
        try require(service)
        let instance = Instance(service: service, replica: replica)
        let pid: pid_t
        switch gateway {
        case .nginx:
            guard let child = children[instance], child.isRunning else { throw Failure("\(instance.name) is not running") }
            pid = child.processIdentifier
        case .commonsUp:
            guard let upPid = gatewayProcess?.processIdentifier, let found = Self.child(of: upPid, named: service.rawValue) else {
                throw Failure("commons up has no running \(service.rawValue) child")
            }
            pid = found
        }
        #if canImport(Glibc)
            _ = Glibc.kill(pid, SIGKILL)
        #else
            _ = Darwin.kill(pid, SIGKILL)
        #endif
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if gateway == .nginx, children[instance]?.isRunning == false { break }
            if gateway == .commonsUp, !FileManager.default.fileExists(atPath: "/proc/\(pid)/stat") || Self.isZombie(pid) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard await Self.status(URL(string: "http://127.0.0.1:\(port(service, replica: replica))/health/live")!) == nil else {
            throw Failure("\(instance.name) still answers after SIGKILL")
        }
    }

    /// Stops one replica as an orchestrator does (SIGTERM, then waits for it to exit after
    /// its drain), starts it again on the same port and read model, and waits until it is
    /// ready: one step of a rolling restart (nginx only).
    package func restartGracefully(_ service: Service, replica: Int = 0) async throws {
        try require(service)
        let instance = Instance(service: service, replica: replica)
        guard gateway == .nginx, let child = children[instance], child.isRunning else {
            throw Failure("\(instance.name) is not a running process of this topology")
        }
        child.terminate()
        let deadline = ContinuousClock.now + .seconds(60)
        while child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !child.isRunning else { throw Failure("\(instance.name) still runs 60 s after SIGTERM") }
        let status = await child.waitUntilExit()
        guard status == .exited(0) else { throw Failure("\(instance.name) \(status) after SIGTERM, not 0") }
        try await restart(service, replica: replica)
    }

    /// Starts a killed service again (same port, same read model) and waits until it is ready.
    /// Under `commons up`, its supervisor does the starting; this waits for it.
    /// With `fresh`, its data directory is emptied first: a replica started late, with no
    /// read model yet (nginx only). With `snapshotFrom` as well, it starts from that replica's
    /// read-model snapshot (`COMMONS_SNAPSHOT_SOURCE`).
    package func restart(_ service: Service, replica: Int = 0, fresh: Bool = false, snapshotFrom peer: Int? = nil) async throws {
        let instance = Instance(service: service, replica: replica)
        if fresh {
            let data = runDirectory.appendingPathComponent("data/\(instance.name)")
            try FileManager.default.removeItem(at: data)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        }
        if let peer {
            guard gateway == .nginx, fresh else { throw Failure("a start from a snapshot needs nginx and a fresh data directory") }
            environments[instance]?["COMMONS_SNAPSHOT_SOURCE"] = "http://127.0.0.1:\(port(service, replica: peer))"
        } else {
            environments[instance]?["COMMONS_SNAPSHOT_SOURCE"] = nil
        }
        if gateway == .nginx { try launch(instance) }
        try await waitFor(instance, path: "/health/ready")
        try await waitUntilReady([service])
    }

    private static func child(of parent: pid_t, named name: String) -> pid_t? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in entries {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let comm = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            if fields.count > 1, pid_t(fields[1]) == parent, name.hasPrefix(comm) { return pid }
        }
        return nil
    }

    private static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    // MARK: PostgreSQL going away

    /// Stops the run's own PostgreSQL at once (clients disconnected, open transactions rolled back).
    /// Every row the run's database holds, as `pg_dump --data-only` writes it: the log, the
    /// key vault, idempotency records, photos, secrets, rate limits.
    package func databaseDump() async throws -> String {
        try await Self.output(of: "/usr/bin/env", ["pg_dump", "--data-only", eventStoreURL])
    }

    /// The log as `commons events export` writes it, photos first.
    package func logExport() async throws -> String {
        let commons = binDirectory.appendingPathComponent("commons").path
        return try await Self.output(of: commons, ["events", "export", "--event-store", eventStoreURL])
    }

    package func stopPostgres() async throws {
        guard let cluster else { throw Failure("this topology runs on a shared PostgreSQL: start it with ownPostgres") }
        try await cluster.pause()
    }

    /// Starts the run's own PostgreSQL again; returns once it accepts connections.
    package func startPostgres() async throws {
        guard let cluster else { throw Failure("this topology runs on a shared PostgreSQL: start it with ownPostgres") }
        try await cluster.resume()
    }

    /// The process id of each service process (by log name), to tell a restart from a survivor.
    package func processIDs() -> [String: Int32] {
        switch gateway {
        case .nginx:
            return children.reduce(into: [:]) { ids, child in if child.value.isRunning { ids[child.key.name] = child.value.processIdentifier } }
        case .commonsUp:
            guard let up = gatewayProcess?.processIdentifier else { return [:] }
            return Service.allCases.reduce(into: [:]) { ids, service in ids[service.rawValue] = Self.child(of: up, named: service.rawValue) }
        }
    }

    /// The processes whose CPU time a benchmark may count, by name: each service process,
    /// nginx's master (as `gateway`; `commons up` is left out, since the services are its
    /// children), and the run's own PostgreSQL's postmaster when it has one. Their trees hold
    /// the rest (nginx's workers, PostgreSQL's backends).
    package func processesToMeasure() -> [String: pid_t] {
        var processes = processIDs()
        if gateway == .nginx, let nginx = gatewayProcess, nginx.isRunning { processes["gateway"] = nginx.processIdentifier }
        if let cluster, let text = try? String(contentsOfFile: "\(cluster.directory)/data/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first, let pid = pid_t(first)
        {
            processes["PostgreSQL"] = pid
        }
        return processes
    }

    /// Each process's `/health/ready` status now (nil when it does not answer), asked at once.
    package func readiness() async -> [String: Int?] {
        let targets = Service.allCases.filter(started.contains).flatMap(instances)
            .map { (name: $0.name, url: URL(string: "http://127.0.0.1:\(port($0.service, replica: $0.replica))/health/ready")!) }
        return await withTaskGroup(of: (String, Int?).self) { group in
            for target in targets { group.addTask { (target.name, await Self.status(target.url)) } }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    // MARK: Stopping

    /// Stops everything started here: SIGTERM, then SIGKILL after 10 s; removes the run directory.
    package func stop() async {
        var all = Array(children.values)
        if let gatewayProcess { all.append(gatewayProcess) }
        for process in all where process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(10)
        while all.contains(where: \.isRunning), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(100)) }
        for process in all { process.send(SIGKILL) }
        children = [:]
        gatewayProcess = nil
        watchdog?.terminate()
        watchdog = nil
        if let database {
            _ = try? await Self.output(
                of: "/usr/bin/env", ["psql", "-q", database.server, "-c", "DROP DATABASE IF EXISTS \(database.name) WITH (FORCE)"])
            self.database = nil
        }
        if let cluster {
            await cluster.destroy()
            self.cluster = nil
        }
        if ProcessInfo.processInfo.environment["COMMONS_E2E_KEEP"] == nil {
            try? FileManager.default.removeItem(at: runDirectory)
        } else {
            Self.announce("kept \(runDirectory.path)")
        }
    }

    // MARK: Helpers

    /// A line about the run on stderr (stdout is a benchmark's report).
    static func announce(_ line: String) {
        FileHandle.standardError.write(Data("topology: \(line)\n".utf8))
    }

    /// Each service's environment from docker-compose.yml, its `${VAR:-default}` values read
    /// from `inputs` and this process's environment, as Compose (and run-topology.sh) reads them.
    package static func composeEnvironments(root: URL, inputs: [String: String]) async throws -> [String: [String: String]] {
        let script = """
            import json, os, re, sys, yaml
            compose = yaml.safe_load(open(sys.argv[1]))['services']
            def interpolate(value):
                def one(m):
                    value = os.environ.get(m.group(1))
                    if (m.group(2) or '').endswith('?') and not value:
                        sys.exit(m.group(1) + ': ' + (m.group(3) or 'is required'))
                    return value or (m.group(3) or '')
                return re.sub(r'\\$\\{(\\w+)(?:(:?[-?])([^}]*))?\\}', one, str(value))
            print(json.dumps({name: {k: interpolate(v) for k, v in (s.get('environment') or {}).items()}
                              for name, s in compose.items() if isinstance(s.get('environment'), dict)}))
            """
        var environment = ProcessInfo.processInfo.environment
        environment.merge(inputs) { $1 }
        // The first python3 with PyYAML, looked for as scripts/run-topology.sh looks.
        var text: String?
        var failure = ""
        for python in ["python3", "/usr/bin/python3"] where text == nil {
            do {
                text = try await output(
                    of: "/usr/bin/env", [python, "-c", script, root.appendingPathComponent("docker-compose.yml").path],
                    environment: environment)
            } catch {
                failure = "\(error)"
            }
        }
        guard let text else {
            throw Failure(
                "reading docker-compose.yml needs python3 with PyYAML, as scripts/run-topology.sh does (apt-get install python3-yaml): \(failure)")
        }
        guard let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: String]] else {
            throw Failure("unexpected shape of docker-compose.yml's environments")
        }
        return parsed
    }

    /// A new database in the PostgreSQL of `url` (via psql), so that this run's log holds only
    /// its own events; the URL itself when psql is missing.
    package static func freshDatabase(in url: String) async throws -> (url: String, name: String?) {
        guard var components = URLComponents(string: url) else { throw Failure("the PostgreSQL URL is not a URL: \(url)") }
        let name = "commons_e2e_\(UUID().uuidString.prefix(8).lowercased())"
        do {
            _ = try await output(of: "/usr/bin/env", ["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", "CREATE DATABASE \(name)"])
        } catch {
            Self.announce("could not create a database (\(error)); using \(components.path) as it is")
            return (url, nil)
        }
        components.path = "/\(name)"
        return (components.string ?? url, name)
    }

    package static func findNginx() -> String? {
        if ProcessInfo.processInfo.environment["COMMONS_E2E_GATEWAY"] == "commons-up" { return nil }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin"]
        return path.map { "\($0)/nginx" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What `executable` wrote to stdout; throws with its stderr when it fails.
    package static func output(of executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> String {
        let result = try await SpawnedProcess.output(of: executable, arguments, environment: environment)
        guard result.status == .exited(0) else {
            throw Failure("\(executable) \(arguments.prefix(2).joined(separator: " ")) \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// Where a process's output goes: `<name>.log` in `directory`, appended to.
    package static func log(named name: String, in directory: URL) -> ForkExec.Stream {
        .file(directory.appendingPathComponent("\(name).log").path)
    }

}
