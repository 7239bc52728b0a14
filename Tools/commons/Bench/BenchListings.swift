import ArgumentParser
import AsyncHTTPClient
import CommonsBench
import EventLog
import EventLogSQLite
import Foundation
import Hummingbird
import ListingsService
import Logging
import NIOCore
import ServiceKit

/// `commons bench listings`: feed and keyword-search requests per second over a read model
/// of many listings, through the real service over loopback HTTP, each beside the same SQL
/// run directly through GRDB on the same file.
struct BenchListings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listings", abstract: "Measure the listings feed and keyword search against their plain SQL.")

    @Option(help: "How many listings the read model holds.")
    var listings = 100_000

    @Option(help: "Seconds to measure each side of each case.")
    var seconds: Double = 5

    @Option(help: "The loopback port the service listens on during the run.")
    var port = 18_182

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-listings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        Bench.note("filling the read model with \(listings) listings")
        let progress = ProgressReport("bench", unit: "listings")
        try await ListingsBenchmark.fill(directory: directory, count: listings) { [listings] filled in
            progress.report(done: filled, fraction: Double(filled) / Double(max(listings, 1)))
        }
        progress.finish(done: listings)

        let service = try await BenchListingsServer.start(directory: directory, port: port)
        let (client, base) = (service.client, service.base)

        let workers = 2 * ProcessInfo.processInfo.activeProcessorCount
        let cases: [(name: String, parameters: [String: String])] = [
            ("feed, newest first, 20 a page", ["limit": "20"]),
            ("feed, free Furniture, 20 a page", ["category": "Furniture", "free": "true", "limit": "20"]),
            ("keyword search 'chair', ranked, 20 a page", ["q": "chair", "limit": "20"]),
        ]
        var rows: [BenchRow] = []
        for (name, parameters) in cases {
            let query = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let url = "\(base)/v1/listings?\(query)"
            Bench.note(name)
            let ours = try await Bench.measure(workers: workers, for: duration) { _ in
                {
                    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 1 << 22)
                    guard response.status == .ok else { throw CommandFailure("\(url) answered \(response.status)") }
                    return 1
                }
            }
            let raw = try ListingsBenchmark.rawFeedQuery(directory: directory, parameters: parameters)
            let ceiling = try await Bench.measure(workers: workers, for: duration) { _ in { try await raw() } }
            rows.append(BenchRow(name: name, ours: ours, ceiling: ceiling))
        }
        try await service.stop()
        print("listings, \(listings) listings, \(workers) concurrent clients over loopback HTTP, \(seconds) s per measurement; requests/s")
        print("(ceiling: the same SQL through GRDB on the same file, rows fetched, no HTTP or JSON)")
        print(BenchRow.table(rows))
    }
}
