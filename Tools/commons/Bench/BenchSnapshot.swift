import ArgumentParser
import AsyncHTTPClient
import CommonsBench
import EventLog
import EventLogSQLite
import Foundation
import GeoSearchService
import ListingsService
import ServiceKit

/// `commons bench snapshot`: how soon a new replica is ready on a large log, from zero and
/// from a peer's read-model snapshot (`COMMONS_SNAPSHOT_SOURCE`), for geo-search and
/// listings, with the disk each took; and that the replica from the snapshot answers as its
/// peer does.
struct BenchSnapshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot", abstract: "Time a new replica to ready, from zero and from a peer's snapshot, on a large log.")

    @Option(help: "Events in the log (ScaleLog's mix of posts, edits, status changes, withdrawals and account deletions).")
    var events = 10_000_000

    @Option(help: "The embedded log to use: filled once if it does not exist, and kept for the next run.")
    var log = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-scale/events.sqlite").path

    @Option(help: "The first of the local ports the replicas listen on (four are used).")
    var port = 18_480

    @Option(help: "Nearby queries asked of both geo-search replicas, whose answers must be the same.")
    var queries = 200

    func validate() throws {
        guard events >= 1_000 else { throw ValidationError("--events must be at least 1,000") }
    }

    func run() async throws {
        let logURL = URL(fileURLWithPath: log)
        try FileManager.default.createDirectory(at: logURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let store = try SQLiteEventStore(path: log)
        let head = try await store.head().position
        if head == 0 {
            Bench.note("writing \(events) events to \(log) (once; later runs reuse it)")
            let summary = try await ScaleLog.fill(store, count: events) { written in
                if written % 500_000 == 0 { Bench.note("  \(written)") }
            }
            Bench.note("  \(summary.posted) listings posted, \(summary.deletedAccounts) accounts deleted")
        } else if head != Int64(events) {
            throw CommandFailure("\(log) holds \(head) events, not \(events): remove it, or give --log another path")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-snapshot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)

        var lines: [String] = []
        var missed: [String] = []
        for (offset, service) in [(0, SnapshotBenchService.geoSearch), (2, .listings)] {
            let peerPort = port + offset
            Bench.note("\(service.name): a replica from zero")
            let peer = try await BenchReplica.start(
                service, store: try SQLiteEventStore(path: log), directory: scratch.appendingPathComponent("\(service.name)-0"), port: peerPort)
            Bench.note("  ready in \(Self.seconds(peer.timeToReady)) s; a replica from its snapshot")
            let joiner = try await BenchReplica.start(
                service, store: try SQLiteEventStore(path: log), directory: scratch.appendingPathComponent("\(service.name)-1"), port: peerPort + 1,
                snapshotFrom: "http://127.0.0.1:\(peerPort)")
            Bench.note("  ready in \(Self.seconds(joiner.timeToReady)) s; comparing answers")
            let differing = try await service.differingAnswers(client: client, peer: peerPort, joiner: peerPort + 1, queries: queries)
            try await joiner.stop()
            try await peer.stop()
            let share = joiner.timeToReady / peer.timeToReady
            // The aim is geo-search's (docs/performance.md); listings is measured beside it.
            let aimed = service == .geoSearch
            let met = share <= 0.1 && joiner.timeToReady <= .seconds(30)
            if aimed && !met { missed.append(service.name) }
            lines.append(
                [
                    service.name.padding(toLength: 12, withPad: " ", startingAt: 0), Self.seconds(peer.timeToReady).leftPadded(9),
                    Self.seconds(joiner.timeToReady).leftPadded(13), String(format: "%.3f", share).leftPadded(6),
                    Self.megabytes(peer.readModelBytes).leftPadded(10), "\(differing) of \(service.comparedAnswers(queries))".leftPadded(12),
                    aimed ? (met ? "  met" : "  MISSED") : "  no aim",
                ].joined(separator: "  "))
            if differing > 0 { throw CommandFailure("\(service.name): \(differing) answers of the replica from the snapshot differ from its peer's") }
        }
        try await client.shutdown()
        await store.shutdown()
        let logBytes = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.int64Value ?? 0
        print(
            "a new replica, from zero and from a peer's snapshot: \(events) events, a SQLite log of \(Self.megabytes(logBytes)) MB, "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("replica       from zero (s)  from snapshot (s)  share  read model (MB)  answers differing  aim (geo-search): share ≤ 0.1 and ≤ 30 s")
        for line in lines { print(line) }
        if !missed.isEmpty { Bench.note("missed the aim: \(missed.joined(separator: ", "))") }
    }

    static func seconds(_ duration: Duration) -> String { String(format: "%.1f", duration / .seconds(1)) }
    static func megabytes(_ bytes: Int64) -> String { String(format: "%.0f", Double(bytes) / 1_000_000) }
}

extension String {
    /// The text right-aligned in `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
