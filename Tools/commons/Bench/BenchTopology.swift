import ArgumentParser
import AsyncHTTPClient
import Foundation
import TopologyKit

/// `commons bench topology`: the production topology (the service binaries behind nginx
/// with deploy/nginx.conf, on a PostgreSQL cluster of the run's own) under a mixed workload,
/// once with one process of every service and once with `--replicas`; then PostgreSQL
/// stopped and started again, timing how long every process takes to be ready.
struct BenchTopology: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topology",
        abstract: "Measure a mixed workload through nginx on one and on several replicas of every service, and recovery from a PostgreSQL restart.",
        discussion: """
            Needs the service executables beside this one (a release build: swift build -c release), \
            nginx, python3 with PyYAML and PostgreSQL's initdb, as scripts/run-topology.sh does. \
            Every request comes from 127.0.0.1, so the gateway's flood guard of 50 requests a second \
            per address is raised for the run; everything else is deploy/nginx.conf as shipped.
            """)

    @Option(help: "Seconds to measure each topology, after a second of warm-up.")
    var seconds: Double = 20

    @Option(help: "Signed-in people sending requests at once, each one after another.")
    var people = 16

    @Option(help: "Processes of every service in the second topology (the first has one).")
    var replicas = 2

    @Option(help: "How many times to stop PostgreSQL and time the recovery, per topology.")
    var restarts = 3

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard (1...256).contains(people) else { throw ValidationError("--people must be 1…256") }
        guard (2...8).contains(replicas) else { throw ValidationError("--replicas must be 2…8") }
        guard (0...20).contains(restarts) else { throw ValidationError("--restarts must be 0…20") }
    }

    func run() async throws {
        var results: [(replicas: Int, run: TopologyRun)] = []
        for count in [1, replicas] {
            results.append((count, try await measure(replicas: count)))
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print(
            "topology: nginx (deploy/nginx.conf) in front of every service, PostgreSQL of the run's own, \(cores) CPUs; "
                + "\(people) signed-in people, \(Int(seconds)) s a topology")
        print("mix: " + MixedWorkload.Operation.allCases.map { "\($0.rawValue) \($0.share) %" }.joined(separator: ", "))
        print("(ceiling: GET /health answered by nginx itself, the same people at once)")
        print(
            BenchRow.table(
                results.map {
                    BenchRow(
                        name: "mixed workload, \($0.replicas) of each service (req/s)", ours: $0.run.outcome.perSecond,
                        ceiling: $0.run.ceiling)
                }, ours: "ours req/s", ceiling: "ceiling req/s"))
        for (count, run) in results {
            let outcome = run.outcome
            print(
                "\n\(count) of each service: \(outcome.requests) requests, \(outcome.failed) not 2xx; "
                    + String(format: "p50 %.1f ms, p99 %.1f ms", outcome.milliseconds(0.5), outcome.milliseconds(0.99)))
            for operation in MixedWorkload.Operation.allCases {
                let failures = (outcome.failures[operation] ?? [:]).sorted { $0.key < $1.key }.map { "\($1)× \($0)" }.joined(separator: ", ")
                let name = operation.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                print(
                    "  \(name)"
                        + String(
                            format: "%6d requests  p50 %7.1f ms  p99 %7.1f ms", outcome.latencies[operation]?.count ?? 0,
                            outcome.milliseconds(0.5, of: operation), outcome.milliseconds(0.99, of: operation))
                        + (failures.isEmpty ? "" : "  not 2xx: \(failures)"))
            }
            if !run.recoveries.isEmpty {
                let times = run.recoveries.map { String(format: "%.2f s", $0 / .seconds(1)) }.joined(separator: ", ")
                print("  PostgreSQL stopped for 4 s, then accepting connections again: every process ready after \(times)")
            }
        }
    }

    /// What one topology measured.
    struct TopologyRun {
        var outcome: MixedWorkload.Outcome
        var ceiling: Double
        var recoveries: [Duration]
    }

    private func measure(replicas count: Int) async throws -> TopologyRun {
        Bench.note("starting \(count) of each service behind nginx")
        // The topology's own settings otherwise: bcrypt cost 4 (sign-ins are not in the mix), per-account limits out of the way.
        return try await Topology.measuring(replicas: count, settings: ["COMMONS_LOG_LEVEL": "warning"], connections: people + 4) {
            topology, client in
            let api = SeedClient(gateway: topology.gatewayURL.absoluteString, client: client)
            Bench.note("registering \(people) people, a verified organisation, wallets, lists and listings")
            let (workload, pool) = try await MixedWorkload.prepare(api: api, people: people, admin: (topology.adminEmail, topology.adminPassword))
            Bench.note("mixed workload for \(seconds) s")
            let duration = Duration.milliseconds(Int64(seconds * 1000))
            let outcome = try await workload.run(for: duration, pool: pool)
            let people = people
            let ceiling = try await Bench.measure(workers: people, for: min(duration, .seconds(5))) { _ in
                {
                    let answer = try await api.get("/health")
                    guard answer.status == 200 else { throw CommandFailure("the gateway's /health answered \(answer.status)") }
                    return 1
                }
            }
            var recoveries: [Duration] = []
            for round in 0..<restarts {
                Bench.note("PostgreSQL restart \(round + 1) of \(restarts)")
                recoveries.append(try await Self.recovery(of: topology))
            }
            return TopologyRun(outcome: outcome, ceiling: ceiling, recoveries: recoveries)
        }
    }

    /// Stops PostgreSQL for 4 s and starts it again; returns the time from it accepting
    /// connections to every process answering 200 on `/health/ready`.
    private static func recovery(of topology: Topology) async throws -> Duration {
        try await topology.stopPostgres()
        let gone = ContinuousClock.now + .seconds(30)
        while await topology.readiness().values.contains(200), ContinuousClock.now < gone { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .seconds(4))
        try await topology.startPostgres()
        let back = ContinuousClock.now
        while ContinuousClock.now - back < .seconds(120) {
            if await topology.readiness().values.allSatisfy({ $0 == 200 }) { return ContinuousClock.now - back }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandFailure("not every process was ready 120 s after PostgreSQL came back: \(await topology.readiness())")
    }
}
