import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceKit
import ServiceLifecycle
import Spawn
import StackKit

#if canImport(Glibc)
    import Glibc
#endif

/// One run of `commons up`: start the gateway and the services, announce them once they
/// are ready, seed a first start, and on SIGINT or SIGTERM stop it all.
struct UpStack {
    let plan: UpPlan
    /// Whether to create the demo data when this data directory has none yet.
    let seed: Bool

    /// How long the children have after SIGTERM before they get SIGKILL.
    static let stopPatience = Duration.seconds(10)

    func run() async throws {
        try checkSecrets()
        // First, so that a Ctrl-C while starting is handled like any other.
        let interrupts = InterruptSignals()
        do {
            try FileManager.default.createDirectory(atPath: plan.dataDirectory, withIntermediateDirectories: true)
            for file in plan.secretFiles where !FileManager.default.fileExists(atPath: file) {
                var random = SystemRandomNumberGenerator()
                let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }).base64EncodedString()
                guard FileManager.default.createFile(atPath: file, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw CommandFailure("cannot write the secret \(file)")
                }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("cannot create the data directory \(plan.dataDirectory): \(error.localizedDescription)")
        }
        let console = UpConsole(names: plan.running.map(\.name) + [Self.gatewayName])
        console.say("data directory \(plan.dataDirectory), event log \(plan.eventStoreDescription)")
        for skipped in plan.skipped {
            console.say("\(skipped.name) skipped: not built yet (no \(skipped.executable))")
        }

        // The services read the same OTEL_* variables, so a bad one stops everything here first.
        let traceExport: (any Service)?
        do {
            traceExport = try TraceExport.bootstrap(service: "commons-gateway")
        } catch let error as ConfigurationError {
            throw CommandFailure("\(error)")
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.clientConfiguration)
        let readiness = StackReadiness(services: plan.running.map { ($0.name, $0.url) }, client: client)
        let gateway: GatewayServer
        do {
            gateway = try await startGateway(readiness: readiness, client: client, console: console, traceExport: traceExport)
        } catch {
            try? await client.shutdown()
            if (error as? IOError)?.errnoCode == EADDRINUSE {
                throw CommandFailure("port \(plan.gatewayPort) is in use (another `commons up`?); choose another with --gateway-port")
            }
            throw CommandFailure("the gateway cannot listen on \(plan.gatewayURL): \(error)")
        }

        let supervisors = plan.running.map {
            ServiceSupervisor(name: $0.name, executable: $0.executable, environment: plan.environment(for: $0), console: console)
        }
        let services = Task {
            await withTaskGroup(of: Void.self) { group in
                for supervisor in supervisors { group.addTask { await supervisor.run() } }
            }
        }
        let startup = Task { await announceWhenReady(readiness: readiness, client: client, console: console) }

        let signals = interrupts.received
        let ending = await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                var next = signals.makeAsyncIterator()
                return .signal(await next.next() ?? SIGTERM)
            }
            group.addTask { await Self.allRefused(supervisors) ? .refused : .signal(SIGTERM) }
            let first = await group.next() ?? .signal(SIGTERM)
            group.cancelAll()
            return first
        }
        switch ending {
        case .signal(let received): console.say("\(signalName(received)): stopping (a second Ctrl-C kills at once)")
        case .refused: console.say("no service can start: each refused its configuration")
        }
        startup.cancel()
        for supervisor in supervisors { supervisor.stop(with: SIGTERM) }
        services.cancel() // cuts restart back-offs short
        let escalation = Task { await killWhenImpatient(supervisors, signals: interrupts.received, console: console) }
        await services.value
        escalation.cancel()
        await startup.value
        await gateway.stop()
        try? await client.shutdown()
        console.say("stopped")
        if case .refused = ending {
            // Repeated at the end, where the person who ran it looks.
            let lines = Set(supervisors.compactMap(\.refusal)).sorted()
            FileHandle.standardError.write(Data(("commons up: every service refused its configuration:\n" + lines.map { "  \($0)\n" }.joined()).utf8))
            throw ExitCode(ServiceSupervisor.badConfiguration)
        }
    }

    /// How a run ends: a signal, or every service refusing its configuration.
    private enum Ending { case signal(Int32), refused }

    /// Waits until every service has refused its configuration (true), or the wait is
    /// cancelled (false).
    private static func allRefused(_ supervisors: [ServiceSupervisor]) async -> Bool {
        while !Task.isCancelled {
            if !supervisors.isEmpty, supervisors.allSatisfy({ $0.refusal != nil }) { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    /// Stops at once, with one line and status 2, when no service could start: a PostgreSQL
    /// log with no key vault secret (an embedded log keeps one beside it).
    private func checkSecrets() throws {
        guard case .postgres = EventStoreLocation(plan.eventStore, dataDirectory: plan.dataDirectory) else { return }
        let given: Bool
        do {
            given = try KeyVaultSecrets.current.given(environment: plan.sharedEnvironment) != nil
        } catch {
            FileHandle.standardError.write(Data("commons up: \(error)\n".utf8))
            throw ExitCode(ServiceSupervisor.badConfiguration)
        }
        guard !given else { return }
        FileHandle.standardError.write(
            Data(
                """
                commons up: a PostgreSQL log needs COMMONS_KEY_VAULT_SECRET (or COMMONS_KEY_VAULT_SECRET_FILE), the same for \
                every service: export COMMONS_KEY_VAULT_SECRET="$(openssl rand -base64 32)"

                """.utf8))
        throw ExitCode(ServiceSupervisor.badConfiguration)
    }

    /// The gateway's name on console lines.
    static let gatewayName = "gateway"

    private static var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        // The gateway passes answers on as they are: redirects go back to the client.
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(2))
        // Every live stream (server-sent events) holds a connection to its service for as long
        // as it is open. With the client's usual eight connections a host, eight streams made
        // every other request to that service queue, and one queued for longer than the
        // connect timeout was answered 502. Like nginx, the gateway opens what it needs.
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 4_096)
        return configuration
    }

    private func startGateway(
        readiness: StackReadiness, client: HTTPClient, console: UpConsole, traceExport: (any Service)?
    ) async throws -> GatewayServer {
        let logger = Logger(label: Self.gatewayName) { _ in UpConsoleLogHandler(console: console, name: Self.gatewayName) }
        let responder = GatewayResponder(
            routes: GatewayRoutes(ServiceTable.services),
            upstreams: Dictionary(uniqueKeysWithValues: plan.running.map { ($0.name, $0.url) }),
            readiness: readiness, docs: try GatewayDocs.load(near: UpPlan.executablesDirectory()),
            web: GatewayWebApp.load(near: try UpPlan.executablesDirectory()), client: client, logger: logger)
        return try await GatewayServer.start(
            host: UpPlan.host, port: plan.gatewayPort, responder: responder, logger: logger, traceExport: traceExport)
    }

    /// Waits until every service is ready, prints where everything is, seeds a first start,
    /// and ends with ``UpWelcome``. Returns early when cancelled.
    private func announceWhenReady(readiness: StackReadiness, client: HTTPClient, console: UpConsole) async {
        let clock = ContinuousClock()
        let started = clock.now
        var reminder = started + .seconds(30)
        while true {
            let notReady = await readiness.notReady()
            if notReady.isEmpty { break }
            if clock.now >= reminder {
                console.say("still waiting for \(notReady.joined(separator: ", ")) to be ready")
                reminder += .seconds(30)
            }
            do { try await Task.sleep(for: .milliseconds(200)) } catch { return }
        }
        let width = (plan.running.map(\.name) + [Self.gatewayName]).map(\.count).max() ?? 0
        func padded(_ name: String) -> String { name + String(repeating: " ", count: width - name.count) }
        console.say("ready in \(readableSeconds(clock.now - started)):")
        console.say("  \(padded(Self.gatewayName))  \(plan.gatewayURL)")
        for service in plan.running { console.say("  \(padded(service.name))  \(service.url)") }

        if seed, !FileManager.default.fileExists(atPath: plan.seededMarker.path) {
            await seedFirstStart(client: client, console: console)
        }
        guard !Task.isCancelled else { return }
        let welcome = UpWelcome(
            gatewayURL: plan.gatewayURL, hasDemoData: FileManager.default.fileExists(atPath: plan.seededMarker.path))
        for line in welcome.lines { console.say(line) }
    }

    /// Creates the demo data through the gateway, and marks the data directory as seeded
    /// when that worked (so a failed seed runs again on the next start).
    private func seedFirstStart(client: HTTPClient, console: UpConsole) async {
        console.say("first start in this data directory: creating demo data (--no-seed skips this)")
        // A development stack on this machine: the published demo password, so anyone trying it can sign in.
        let seeder = Seeder(
            api: SeedClient(gateway: plan.gatewayURL, client: client),
            eventStore: EventStoreLocation(plan.eventStore, dataDirectory: plan.dataDirectory), environment: plan.sharedEnvironment,
            password: DemoAccounts.password)
        // Printed in one piece at the end, rather than between the services' log lines.
        var report: [String] = []
        let missing: [String]
        do {
            missing = try await seeder.run(running: Set(plan.running.map(\.name))) { report.append($0) }
        } catch {
            guard !Task.isCancelled else { return }
            for line in report { console.say(line) }
            console.say("seeding failed: \(error); it runs again on the next start, or run `commons seed`")
            return
        }
        for line in report { console.say(line) }
        guard missing.isEmpty else {
            return console.say("not marked as seeded, so the next start seeds again: \(missing.joined(separator: " and ")) not found")
        }
        do {
            try Data("seeded by commons up at \(Date().formatted(.iso8601))\n".utf8).write(to: plan.seededMarker)
        } catch {
            console.say("cannot write \(plan.seededMarker.path), so the next start seeds again: \(error.localizedDescription)")
        }
    }

    /// After ``stopPatience``, or at a second SIGINT or SIGTERM, sends SIGKILL to the
    /// children still running. Returns early when cancelled.
    private func killWhenImpatient(_ supervisors: [ServiceSupervisor], signals: AsyncStream<Int32>, console: UpConsole) async {
        let reason = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do { try await Task.sleep(for: Self.stopPatience) } catch { return nil }
                return "still running after \(readableSeconds(Self.stopPatience))"
            }
            group.addTask {
                var arrivals = signals.makeAsyncIterator()
                guard let received = await arrivals.next() else { return nil }
                return "\(signalName(received)) again"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let reason, !Task.isCancelled else { return }
        for supervisor in supervisors {
            guard let pid = supervisor.pid else { continue }
            console.say("\(supervisor.name) \(reason): SIGKILL to pid \(pid)")
            supervisor.stop(with: SIGKILL)
        }
    }
}
