import EventLogTestSupport
import Foundation
import Spawn
import Testing

@Suite("benchmark code")
struct BenchCodeTests {
    static let drivers = ["AccountsBenchmark", "DonationsBenchmark", "GeoSearchBenchmark", "ListingsBenchmark", "ShoppingListsBenchmark"]

    @Test("no service executable carries the benchmark drivers; commons does")
    func driversLiveInTheCLIOnly() async throws {
        let directory = commonsExecutable.deletingLastPathComponent()
        // GNU grep searches each ~200 MB debug binary for every name in one pass; reading them
        // into memory and searching with `Data.range(of:)` took 20 s of CPU.
        func drivers(in binary: String) async throws -> Set<String> {
            let patterns = Self.drivers.flatMap { ["-e", $0] }
            let result = try await SpawnedProcess.output(
                of: "/usr/bin/grep", ["--text", "--only-matching", "--fixed-strings"] + patterns + [directory.appendingPathComponent(binary).path])
            // 1 is grep's "nothing found"; anything else is a failure to search.
            guard result.status == .exited(0) || result.status == .exited(1) else {
                throw TestSetupError("grep failed on \(binary): \(result.stderr)")
            }
            return Set(result.stdout.split(separator: "\n").map(String.init))
        }
        for service in ["accounts", "listings", "geo-search", "donations", "shopping-lists"] {
            #expect(try await drivers(in: service).isEmpty, "\(service) contains benchmark drivers")
        }
        #expect(try await drivers(in: "commons") == Set(Self.drivers))
    }

    @Test(
        "bench eventlog --cases refuses a group it does not know, naming the option and the groups", arguments: ["nonsense", "read-all,bogus", ","])
    func unknownCaseGroupRefused(cases: String) async throws {
        let result = try await commons("bench", "eventlog", "--postgres", "postgres://nobody@127.0.0.1:1/none", "--cases", cases, log: nil)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("--cases"), "\(result)")
        #expect(result.stderr.contains("read-all"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test(
        "bench eventlog refuses group-commit slots outside 1…64 and a read-all window outside 1000…10000000, naming the option",
        arguments: [
            ("--concurrent-appends=0", "--concurrent-appends must be 1…64"), ("--concurrent-appends=65", "--concurrent-appends must be 1…64"),
            ("--concurrent-appends=-1", "--concurrent-appends must be 1…64"), ("--read-window=999", "--read-window must be 1000…10000000"),
            ("--read-window=10000001", "--read-window must be 1000…10000000"), ("--read-window=-5", "--read-window must be 1000…10000000"),
        ])
    func optionOutOfRangeRefused(option: String, message: String) async throws {
        let result = try await commons("bench", "eventlog", "--postgres", "postgres://nobody@127.0.0.1:1/none", option, log: nil)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test(
        "bench eventlog's append cases run on a real PostgreSQL: both stores', pgbench's and the prepared driver's rates, and each side's CPU per event, client and server, each a figure"
    )
    func appendCasesRun() async throws {
        let (url, result, output) = try await BenchOutput.run(cases: "append")
        let (lines, rates, cpu) = (output.lines, output.rates, output.cpu)
        for shape in ["1 writer, 1 event", "8 writers, 1 event", "1 writer, 100 events", "8 writers, 100 events"] {
            for store in BenchOutput.stores {
                let ours = rates("append, \(shape) per append, \(store)")
                #expect(ours.count == 1 && ours.allSatisfy(BenchOutput.isFigure), "\(shape), \(store): \(result)")
            }
        }
        let driver = rates("the same INSERT through PostgresNIO, prepared, a connection each")
        #expect(driver.count == 4 && driver.allSatisfy(BenchOutput.isFigure), "\(result)")

        // The CPU an event cost each side: client and PostgreSQL, then pgbench's client and
        // PostgreSQL. A cluster on this machine (make test's) has its PostgreSQL columns
        // counted; one elsewhere shows "-" there.
        #expect(lines.contains { $0.hasPrefix("CPU per event (µs)") }, "\(result)")
        let expected = BenchOutput.cpuCells(url)
        for shape in ["1 writer, 1 event", "8 writers, 1 event", "1 writer, 100 events", "8 writers, 100 events"] {
            for store in BenchOutput.stores {
                #expect(cpu("append, \(shape) per append, \(store)") == [expected], "\(shape), \(store): \(result)")
            }
        }
        #expect(cpu("the same INSERT through PostgresNIO, prepared, a connection each") == Array(repeating: expected, count: 4), "\(result)")
    }

    @Test(
        "bench eventlog's read-all case runs on a real PostgreSQL: both stores' rates and the SELECT's, and what an event read cost each side, in a table of its own"
    )
    func readAllCaseRuns() async throws {
        // A window of 5,000 rather than 200,000: the top-up is most of the run, and a debug
        // build on a slow day took past two minutes for 200,000.
        let (url, result, output) = try await BenchOutput.run(cases: "read-all", "--read-window", "5000")
        #expect(output.lines.contains { $0.hasPrefix("CPU per event (µs)") && $0.contains("the SELECT's client") }, "\(result)")
        #expect(!output.lines.contains { $0.contains("pgbench's client") }, "\(result)")
        for store in BenchOutput.stores {
            let name = "read-all, pages of 1000 (the first 5000 of 5000 events), vs one binary SELECT, \(store)"
            #expect(output.rates(name).count == 1 && output.rates(name).allSatisfy(BenchOutput.isFigure), "\(store): \(result)")
            #expect(output.cpu(name) == [BenchOutput.cpuCells(url)], "\(store): \(result)")
        }
    }

    @Test("bench http without its load generator stops with one line that says how to install it, before starting anything")
    func httpWithoutWrkRefused() async throws {
        let result = try await commons("bench", "http", "--wrk", "/nonexistent/wrk", log: nil)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("apt-get install wrk"), "\(result)")
        #expect(!result.stderr.contains("starting every service"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}

/// The lines `commons bench eventlog` printed.
private struct BenchOutput {
    let lines: [String]

    init(_ stdout: String) { lines = stdout.split(separator: "\n").map(String.init) }

    /// The PostgreSQL stores each case runs on, as its rows name them.
    static let stores = ["PostgresNIO", "libpq"]

    /// Runs `commons bench eventlog --cases cases` briefly on the test server, expecting it to succeed.
    static func run(cases: String, _ more: String...) async throws -> (url: String, result: CommandResult, output: BenchOutput) {
        let url = try Backend.postgresURL()
        let arguments = ["bench", "eventlog", "--postgres", url, "--cases", cases, "--seconds", "0.2"] + more
        let result = try await CommonsProcess(arguments, log: nil, stdin: nil, environment: [:]).finish()
        #expect(result.status == 0, "\(result)")
        return (url, result, BenchOutput(result.stdout))
    }

    /// The first figure after `name` on its lines (events a second, thousands separated by commas).
    func rates(_ name: String) -> [Double] {
        lines.filter { $0.hasPrefix(name) }.compactMap { line in
            line.dropFirst(name.count).split(separator: " ").first.flatMap { Double($0.replacingOccurrences(of: ",", with: "")) }
        }
    }

    /// Each CPU line's cells after the case's name: "n" for a figure (``isFigure(_:)``), else the cell.
    func cpu(_ name: String) -> [[String]] {
        lines.filter { $0.hasPrefix("  " + name) }.map { line in
            line.dropFirst(2 + name.count).split(separator: " ").map { cell in
                Double(cell).map { Self.isFigure($0) ? "n" : String(cell) } ?? String(cell)
            }
        }
    }

    /// Whether `value` is a figure a measurement can give: finite and not negative. Zero is one:
    /// a short run on a fast machine can spend less CPU than `/proc` counts (a clock tick, 10 ms)
    /// or round to a rate of 0, so how large a figure is depends on the machine, not the code.
    static func isFigure(_ value: Double) -> Bool { value.isFinite && value >= 0 }

    /// A CPU line's cells: client and PostgreSQL, then the ceiling's client and PostgreSQL.
    /// A cluster on this machine (make test's) has its PostgreSQL columns counted; one
    /// elsewhere shows "-" there.
    static func cpuCells(_ url: String) -> [String] {
        let local = ["@127.0.0.1:", "@localhost:", "@[::1]:"].contains { url.contains($0) }
        return local ? ["n", "n", "n", "n"] : ["n", "-", "n", "-"]
    }
}
