import ArgumentParser
import CommonsBench
import DonationsService
import EventLog
import EventLogPostgres
import EventLogSQLite
import Foundation
import Logging

/// `commons bench donations`: donations per second with concurrent clients on distinct
/// wallets, beside raw appends of the same events through the same event store.
struct BenchDonations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "donations", abstract: "Measure donations per second against raw appends of the same events.")

    @Option(help: "Seconds to measure each side.")
    var seconds: Double = 5

    @Option(help: "Concurrent clients, each with its own wallet.")
    var clients = 8

    @Option(help: "A PostgreSQL server (postgres:// URL) to run on, in a fresh schema (left for inspection); default an embedded SQLite log.")
    var postgres: String?

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard (1...256).contains(clients) else { throw ValidationError("--clients must be from 1 to 256") }
    }

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-donations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any EventStore
        let backend: String
        if let postgres {
            var configuration = try PostgresEventStoreConfiguration(url: postgres)
            configuration.schema = "bench_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            var logger = Logger(label: "bench")
            logger.logLevel = .critical
            store = try await PostgresEventStore(configuration: configuration, logger: logger)
            backend = "PostgreSQL, schema \(configuration.schema)"
        } else {
            store = try SQLiteEventStore(path: directory.appendingPathComponent("events.sqlite").path)
            backend = "SQLite"
        }
        Bench.note("donations: setting up \(clients) wallets")
        let donations = try await DonationsBenchmark.donations(store: store, wallets: clients)
        let ours = try await Bench.measure(workers: clients, for: duration) { worker in
            {
                try await donations[worker](); return 1
            }
        }
        let appends = DonationsBenchmark.rawAppends(store: store, wallets: clients)
        let ceiling = try await Bench.measure(workers: clients, for: duration) { worker in
            {
                try await appends[worker](); return 1
            }
        }
        await store.shutdown()
        print("donations, \(clients) concurrent clients on distinct wallets, \(backend) log, \(seconds) s per measurement")
        print(BenchRow.table([BenchRow(name: "donations (command path)", ours: ours, ceiling: ceiling)]))
        print("ceiling: raw appends of a same-sized DonationMade, one stream per client, exact expected version")
    }
}
