import ArgumentParser
import CommonsBench
import EventLog
import EventLogSQLite
import Foundation
import GeoSearchService
import Synchronization

/// `commons bench geo-search`: a million listings over a metro area. The read model's rebuild
/// rate beside reading the same log; a 5 km nearest-first query with a category filter, in
/// process, beside a brute-force scan of the same rows (same answers required); and the same
/// query over HTTP beside the service's cheapest route.
struct BenchGeoSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-search", abstract: "Measure rebuild, nearby queries in process and over HTTP, beside brute force.")

    @Option(help: "Listings in the log.")
    var listings = 1_000_000

    @Option(help: "In-process queries to time (a tenth of them also by brute force).")
    var queries = 2_000

    @Option(help: "Seconds to measure each HTTP case, after a warm-up of one.")
    var seconds = 5

    @Option(help: "The wrk executable, the load generator of the HTTP cases (Debian's wrk).")
    var wrk = "/usr/bin/wrk"

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1…600") }
    }

    @Option(help: "The local port to serve geo-search on during the HTTP cases.")
    var port = 18_383

    func run() async throws {
        let wrk = Wrk(executable: wrk)
        try wrk.check()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-geo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("events.sqlite").path)
        let count = listings

        Bench.note("writing \(count) listings to a SQLite log")
        let progress = ProgressReport("bench", unit: "listings")
        try await GeoSearchBenchmark.fillLog(store, count: count) { written in
            progress.report(done: written, fraction: Double(written) / Double(max(count, 1)))
        }
        progress.finish(done: count)

        // The ceiling of a rebuild: reading the same events from the same log, nothing applied.
        let clock = ContinuousClock()
        var checkpoint = Checkpoint.start
        var read = 0
        let readTime = try await clock.measure {
            while true {
                let page = try await store.readAll(after: checkpoint, limit: 2_000, filter: .all)
                if page.events.isEmpty { break }
                read += page.events.count
                checkpoint = page.checkpoint
            }
        }
        Bench.note("rebuilding the read model")
        var applied = 0
        // The time of the last page that applied events splits the rebuild in two: loading the
        // rows, then the end of the bulk load (the indexes), which runs on one core.
        let lastLoad = Mutex((applied: 0, at: clock.now))
        let rebuildTime = try await clock.measure {
            applied = try await GeoSearchBenchmark.rebuild(from: store, directory: directory) { applied, _ in
                lastLoad.withLock { last in if applied > last.applied { last = (applied, clock.now) } }
            }
        }
        let ending = clock.now - lastLoad.withLock { $0.at }
        Bench.note(
            String(
                format: "rows loaded in %.1f s, the indexes built at the end in %.1f s", (rebuildTime - ending) / .seconds(1), ending / .seconds(1)))

        Bench.note("timing \(queries) in-process queries")
        let queries = try GeoSearchBenchmark.Queries(directory: directory)
        var indexed: [Duration] = []
        var brute: [Duration] = []
        var mismatches = 0
        for index in 0..<(self.queries + 50) {
            let (lat, lon) = GeoSearchBenchmark.metroPoint(Double.random(in: 0.15..<0.85), Double.random(in: 0.15..<0.85))
            let category = GeoSearchBenchmark.categories.randomElement()!
            var ours: [UUID] = []
            let took = try await clock.measure {
                ours = try await queries.nearest(lat: lat, lon: lon, radiusMeters: 5_000, category: category, limit: 20)
            }
            guard index >= 50 else { continue } // warm-up
            indexed.append(took)
            if index % 10 == 0 {
                var theirs: [UUID] = []
                brute.append(
                    try await clock.measure {
                        theirs = try await queries.bruteForce(lat: lat, lon: lon, radiusMeters: 5_000, category: category, limit: 20)
                    })
                if theirs != ours || ours.count < 20 { mismatches += 1 }
            }
        }

        Bench.note("HTTP, 8 connections from wrk, \(seconds) s per case")
        let base = "http://127.0.0.1:\(port)"
        let seconds = seconds
        let (overHTTP, health) = try await GeoSearchBenchmark.serving(store: store, directory: directory, port: port) {
            let nearby = (0..<Wrk.requestsPerScript).map { _ in
                let (lat, lon) = GeoSearchBenchmark.metroPoint(Double.random(in: 0.15..<0.85), Double.random(in: 0.15..<0.85))
                return "/v1/nearby/listings?lat=\(lat)&lon=\(lon)&radius=5&category=\(GeoSearchBenchmark.categories.randomElement()!)"
            }
            let ours = try await wrk.measure(base: base, paths: nearby, connections: 8, seconds: seconds)
            let live = try await wrk.measure(base: base, paths: ["/health/live"], connections: 8, seconds: seconds)
            return (ours.rate, live.rate)
        }
        await store.shutdown()

        let perSecond = { (durations: [Duration]) in Double(durations.count) / (durations.reduce(.zero, +) / .seconds(1)) }
        print("geo-search, \(count) listings over a 44 km × 44 km metro area, SQLite log, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(
            BenchRow.table([
                BenchRow(
                    name: "read-model rebuild from zero", ours: Double(applied) / (rebuildTime / .seconds(1)),
                    ceiling: Double(read) / (readTime / .seconds(1)), aim: .rate(60_000)), // issue 17's goal
                BenchRow(name: "5 km + category, in process (q/s)", ours: perSecond(indexed), ceiling: perSecond(brute)),
                BenchRow(name: "5 km + category, HTTP, 8 connections (req/s)", ours: overHTTP, ceiling: health),
                BenchRow(name: "  the same over HTTP vs brute force in process", ours: overHTTP, ceiling: perSecond(brute)),
            ]))
        print("")
        print("latency of a 5 km query with a category filter, first page of 20, in process:")
        print(
            "  index (band and Hilbert range, growing circle): p50 \(Self.ms(indexed, 0.50)) ms, p99 \(Self.ms(indexed, 0.99)) ms over \(indexed.count) queries"
                + " (aim: p99 ≤ 2 ms)")
        print("  brute-force scan of the same rows: p50 \(Self.ms(brute, 0.50)) ms, p99 \(Self.ms(brute, 0.99)) ms over \(brute.count) queries")
        print("  answers different from brute force: \(mismatches) of \(brute.count)")
        print("  (brute force is the slower side: those ratios are the index's speed-up; the first HTTP ceiling is GET /health/live)")
        if mismatches > 0 { throw CommandFailure("\(mismatches) queries answered differently from the brute-force scan") }
    }

    private static func ms(_ durations: [Duration], _ quantile: Double) -> String {
        guard !durations.isEmpty else { return "-" }
        let sorted = durations.sorted()
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
        return String(format: "%.3f", value / .milliseconds(1))
    }
}
