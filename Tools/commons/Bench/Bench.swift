import ArgumentParser
import AsyncHTTPClient
import EventLog
import EventLogPostgres
import Foundation
import Spawn

/// `commons bench`: every figure beside a ceiling measured in the same run.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure Commons beside the raw operations it is built on.",
        subcommands: [
            BenchEventLog.self, BenchAccounts.self, BenchListings.self, BenchImages.self, BenchGeoSearch.self, BenchDonations.self,
            BenchShopping.self, BenchTopology.self, BenchHTTP.self, BenchVisible.self, BenchSnapshot.self,
        ])
}

/// `commons bench eventlog`: measures the event log and sets each figure beside a ceiling
/// measured in the same run, through the same driver: the plain statement or transaction
/// that does the same work without the event log around it.
struct BenchEventLog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eventlog", abstract: "Measure the event log against plain PostgreSQL and SQLite statements.")

    @Option(help: "The PostgreSQL server, as a postgres:// URL. The run uses a fresh schema and drops it.")
    var postgres: String

    @Option(help: "Seconds to measure each side of each case, after a brief warm-up.")
    var seconds: Double = 5

    @Option(help: "Rounds of each PostgreSQL case and its ceiling, side by side; the ratio printed is the rounds' median, with their range.")
    var rounds = 1

    @Option(help: "The pgbench executable, run on the same server as the PostgreSQL cases' ceiling.")
    var pgbench = "/usr/bin/pgbench"

    @Option(help: "Where the SQLite files go (default: a temporary directory, removed afterwards).")
    var sqliteDirectory: String?

    @Option(help: "The groups of cases to run, comma-separated: append, read-all, sqlite (default: all).")
    var cases: BenchEventLogCases = .all

    @Option(help: "Connections of the store's own for its statements, beside the pool (the store's default: 4; 0 puts every statement on the pool).")
    var statementConnections = PostgresEventStoreConfiguration(host: "localhost").statementConnections

    @Option(help: "Single-event appends the store runs at once before grouping the rest into one statement (the store's default: 2).")
    var concurrentAppends = PostgresEventStoreConfiguration(host: "localhost").concurrentAppends

    @Option(help: "Events the read-all case reads, from the log's start, before starting again; the log is topped up to as many first.")
    var readWindow = PostgresBench.defaultReadWindow

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be 1…20") }
        guard (0...64).contains(statementConnections) else { throw ValidationError("--statement-connections must be 0…64") }
        guard (1...64).contains(concurrentAppends) else { throw ValidationError("--concurrent-appends must be 1…64") }
        guard (1_000...10_000_000).contains(readWindow) else { throw ValidationError("--read-window must be 1000…10000000") }
        guard FileManager.default.isExecutableFile(atPath: pgbench) else {
            throw ValidationError("pgbench is not at \(pgbench) (it ships with PostgreSQL's client package; or pass --pgbench PATH)")
        }
    }

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        var configuration = try PostgresEventStoreConfiguration(url: postgres)
        configuration.schema = "bench_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        configuration.statementConnections = statementConnections
        configuration.concurrentAppends = concurrentAppends

        let (serverVersion, postgresRows) = try await PostgresBench.run(configuration: configuration, duration: duration, readWindow: readWindow) {
            bench in
            let pgbench = Pgbench(
                executable: self.pgbench, configuration: configuration, table: "\(configuration.schema).pgbench_events", duration: duration)
            return (try await bench.serverVersion(), try await bench.cases(pgbench: pgbench, rounds: rounds, groups: cases))
        }

        let directory =
            sqliteDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if sqliteDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
        let sqliteRows = cases.contains(.sqlite) ? try await SQLiteBench(directory: directory, duration: duration).cases() : []

        print(
            "machine: \(await shell("uname", "-srm")), \(await shell("nproc")) CPUs, PostgreSQL \(serverVersion); \(seconds) s per measurement, \(rounds) round\(rounds == 1 ? "" : "s") of each PostgreSQL case"
        )
        print(BenchRow.table(postgresRows, ceiling: "pgbench ev/s"))
        let (reads, appends) = (postgresRows.filter(\.isRead), postgresRows.filter { !$0.isRead })
        if let cpu = BenchRow.cpuTable(appends, ceiling: "pgbench's") { print(cpu) }
        if let cpu = BenchRow.cpuTable(reads, ceiling: "the SELECT's") { print(cpu) }
        if !sqliteRows.isEmpty { print(BenchRow.table(sqliteRows)) }
    }

    private func shell(_ arguments: String...) async -> String {
        guard let result = try? await SpawnedProcess.output(of: "/usr/bin/env", arguments) else { return "?" }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// One unit of work of a measured case; returns how many events it handled.
typealias BenchStep = () async throws -> Int

// MARK: Measuring

extension Bench {
    /// Waits (up to 10 s) until `url` answers 200.
    static func waitUntilReady(_ client: HTTPClient, _ url: String) async throws {
        for _ in 0..<200 {
            if let response = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(2)), response.status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandFailure("\(url) did not answer 200 in 10 s")
    }

    /// Runs `workers` concurrent loops of steps, each loop with its own step from
    /// `makeStep(worker)` (so that it can keep state, such as the stream it appends to):
    /// first a brief warm-up, then for `duration` (and at least one step each). Returns events per
    /// second over the measured part: the steps begun after the warm-up, from the first of them
    /// to the end of the last.
    static func measure(
        workers: Int = 1, for duration: Duration, _ makeStep: @escaping @Sendable (_ worker: Int) -> BenchStep
    ) async throws -> Double {
        try await measureCounting(workers: workers, for: duration, makeStep).rate
    }

    /// ``measure(workers:for:_:)``, also returning every event the steps handled, the
    /// warm-up's included (to divide the CPU of the whole stretch by).
    static func measureCounting(
        workers: Int = 1, for duration: Duration, _ makeStep: @escaping @Sendable (_ worker: Int) -> BenchStep
    ) async throws -> (rate: Double, events: Int) {
        let clock = ContinuousClock()
        let warmedUp = clock.now + min(.seconds(1), duration / 5)
        let end = warmedUp + duration
        typealias Span = (events: Int, warmUp: Int, start: ContinuousClock.Instant, end: ContinuousClock.Instant)
        let spans = try await withThrowingTaskGroup(of: Span.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let step = makeStep(worker)
                    var warmUp = 0
                    while clock.now < warmedUp { warmUp += try await step() }
                    let start = clock.now
                    var events = 0
                    // At least one measured step each: on a loaded machine the warm-up can run past
                    // `end`, and a rate of 0 would say nothing.
                    repeat { events += try await step() } while clock.now < end
                    return (events, warmUp, start, clock.now)
                }
            }
            return try await group.reduce(into: [Span]()) { $0.append($1) }
        }
        let events = spans.reduce(0) { $0 + $1.events }
        let elapsed = spans.map { $0.end }.max()! - spans.map { $0.start }.min()!
        return (Double(events) / (elapsed / .seconds(1)), events + spans.reduce(0) { $0 + $1.warmUp })
    }

    /// The CPU time a process has used so far, user and system (Linux; nil elsewhere or when
    /// it is gone).
    static func cpuSeconds(of pid: pid_t) -> Double? {
        ProcessTreeCPU.ownSeconds(of: pid)
    }

    /// Progress on stderr, so that stdout holds only the report.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }
}

/// The streams one writer appends to: a new stream every `eventsPerStream` events, so
/// that each append names its exact expected version.
struct BenchStreamCursor {
    let prefix: String
    let eventsPerStream: Int64 = 100
    private var appended: Int64 = 0

    init(_ prefix: String) { self.prefix = prefix }

    /// The stream for the next `count` events and its version before them.
    mutating func advance(by count: Int) -> (stream: String, version: Int64) {
        defer { appended += Int64(count) }
        return ("\(prefix)\(appended / eventsPerStream)", appended % eventsPerStream)
    }
}

/// The event every case writes: a small JSON body and the metadata a service sets.
enum BenchEvent {
    static let type = "BenchEvent"
    static let category = "bench"
    static let body = #"{"amount":1250,"currency":"EUR","listing":"4f1c2b7e-9a53-4d8e-8a61-0c7d5b3e2f10","note":"a benchmark event"}"#
    static let metadata = EventMetadata(
        correlationId: "0b6f3c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f", actorId: "account-42", service: "bench")
    /// The metadata as both stores write it (sorted keys); ceilings send it as is.
    static let metadataJSON: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try! encoder.encode(metadata), as: UTF8.self)
    }()

    /// `count` new events with fresh ids.
    static func batch(_ count: Int) -> [NewEvent] {
        (0..<count).map { _ in NewEvent(type: type, data: Data(body.utf8), metadata: metadata) }
    }
}

// MARK: Reporting

/// One line of the report.
struct BenchRow {
    /// What a case must reach: a share of its ceiling, or an absolute rate.
    enum Aim {
        case none
        case ratio(Double)
        case rate(Double)
    }

    var name: String
    var ours: Double
    var ceiling: Double
    var aim: Aim = .none
    /// Each round's ratio when the case was measured in rounds (see ``interleaved(_:rounds:aim:ours:ceiling:)``).
    var rounds: [Double] = []
    /// What an event cost each side in CPU, where the case measured it (``EventCPU``).
    var cpu: (ours: EventCPU, ceiling: EventCPU)?

    /// Ours over the ceiling; over several rounds, the median of the rounds' ratios, each
    /// taken from two measurements side by side, so that the machine's drift between
    /// rounds falls on both.
    var ratio: Double {
        if !rounds.isEmpty { return Self.median(rounds) }
        return ceiling > 0 ? ours / ceiling : 0
    }

    /// The ratio as printed: with the rounds' lowest and highest when there were several.
    var ratioText: String {
        let median = String(format: "%.2f", ratio)
        guard rounds.count > 1, let low = rounds.min(), let high = rounds.max() else { return median }
        return median + String(format: " (%.2f–%.2f)", low, high)
    }

    /// Measures `ours`, then `ceiling`, `rounds` times over, each told the round (from 1), so
    /// that a case that writes can write somewhere new; the row holds each side's median and
    /// every round's ratio.
    static func interleaved(
        _ name: String, rounds: Int, aim: Aim = .none,
        ours: (_ round: Int) async throws -> Double, ceiling: (_ round: Int) async throws -> Double
    ) async throws -> BenchRow {
        try await withoutActuallyEscaping(ours) { ours in
            try await withoutActuallyEscaping(ceiling) { ceiling in
                try await interleaved([name], rounds: rounds, aim: aim, sides: [ours], ceiling: ceiling)[0]
            }
        }
    }

    /// Measures each of `sides` in turn, then `ceiling`, `rounds` times over: one row per side,
    /// named by `names`, each with every round's ratio to the ceiling measured in that round.
    static func interleaved(
        _ names: [String], rounds: Int, aim: Aim = .none,
        sides: [(_ round: Int) async throws -> Double], ceiling: (_ round: Int) async throws -> Double
    ) async throws -> [BenchRow] {
        var (rates, ceilings, ratios) = ([[Double]](repeating: [], count: sides.count), [Double](), [[Double]](repeating: [], count: sides.count))
        for round in 1...max(1, rounds) {
            if rounds > 1 { Bench.note("\(names[0]): round \(round) of \(rounds)") }
            var measured: [Double] = []
            for side in sides { measured.append(try await side(round)) }
            let best = try await ceiling(round)
            ceilings.append(best)
            for (index, mine) in measured.enumerated() {
                rates[index].append(mine)
                ratios[index].append(best > 0 ? mine / best : 0)
            }
        }
        return names.indices.map { index in
            BenchRow(name: names[index], ours: median(rates[index]), ceiling: median(ceilings), aim: aim, rounds: ratios[index])
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var aimText: String {
        switch aim {
        case .none: ""
        case .ratio(let share): "ratio ≥ \(String(format: "%.1f", share))" + (ratio >= share ? "  met" : "  MISSED")
        case .rate(let rate): "≥ \(Self.grouped(rate)) ev/s" + (ours >= rate ? "  met" : "  MISSED")
        }
    }

    /// The rows as a table with a header line; `ours` and `ceiling` head the two figures' columns.
    static func table(_ rows: [BenchRow], ours: String = "ours ev/s", ceiling: String = "ceiling ev/s") -> String {
        let header = ["case", ours, ceiling, "ratio", "aim"]
        let cells = [header] + rows.map { [$0.name, grouped($0.ours), grouped($0.ceiling), $0.ratioText, $0.aimText] }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { line in
            line.indices.map { column in
                let cell = line[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                // Names and aims read left to right; numbers line up on the right.
                return column == 0 || column == line.count - 1 ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// The CPU an event cost each side of the rows that measured it, one line a row (indented,
    /// so that a line of the rates' table is never mistaken for one of these); nil when none did.
    static func cpuTable(_ rows: [BenchRow], ceiling: String = "ceiling's") -> String? {
        let measured = rows.compactMap { row in row.cpu.map { (row.name, $0) } }
        guard !measured.isEmpty else { return nil }
        func micros(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
        let header = ["CPU per event (µs)", "client", "PostgreSQL", "\(ceiling) client", "PostgreSQL"]
        let cells =
            [header]
            + measured.map { name, cpu in
                ["  " + name, micros(cpu.ours.client), micros(cpu.ours.server), micros(cpu.ceiling.client), micros(cpu.ceiling.server)]
            }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { line in
            line.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - line[column].count)
                return column == 0 ? line[column] + padding : padding + line[column]
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
