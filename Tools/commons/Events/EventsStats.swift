import ArgumentParser
import EventLog
import Foundation
import ServiceKit

/// `commons events stats`: what the log holds, and how far behind each read model is.
struct EventsStats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count events by category and type; show the head and each read model's checkpoint and lag.")

    @OptionGroup var store: EventStoreOption

    @Option(help: "Where the read models live (their *.current pointer files). Default: COMMONS_DATA_DIR, else .commons.")
    var dataDir: String?

    func run() async throws {
        let directory = URL(fileURLWithPath: dataDir ?? EnvironmentVariables().dataDirectory)
        try await store.withStore { store in
            let counts = try await countEvents(in: store)
            let readModels = readModelCheckpoints(in: directory)
            let output = LineOutput()
            for line in statsReport(counts, readModels: readModels, directory: directory.path) { try output.write(line) }
            try output.flush()
        }
    }
}

/// How many events the log holds, up to its head.
struct EventCounts {
    var head: Checkpoint = .start
    var total = 0
    var byCategory: [String: Int] = [:]
    var byType: [String: Int] = [:]
}

/// Counts the events up to the head as it is when the count starts.
func countEvents(in store: any EventStore) async throws -> EventCounts {
    var counts = EventCounts(head: try await store.head())
    try await forEachPage(of: store, after: .start) { events in
        for event in events {
            guard event.checkpoint <= counts.head else { return false }
            counts.total += 1
            counts.byCategory[event.category, default: 0] += 1
            counts.byType[event.type, default: 0] += 1
        }
        return true
    }
    return counts
}

/// The report's lines: totals, counts by category and type, and each read model's projections.
func statsReport(_ counts: EventCounts, readModels: [ReadModelCheckpoints], directory: String) -> [String] {
    var lines = ["events: \(counts.total)", "head: \(counts.head)", "by category:"]
    lines += table(counts.byCategory)
    lines.append("by type:")
    lines += table(counts.byType)
    guard !readModels.isEmpty else { return lines + ["read models: none in \(directory)"] }
    lines.append("read models:")
    for readModel in readModels {
        switch readModel.projections {
        case .failure(let error):
            lines.append("  \(readModel.name) (\(readModel.file)): cannot read: \(CommandFailure(error))")
        case .success(let projections) where projections.isEmpty:
            lines.append("  \(readModel.name) (\(readModel.file)): no checkpoints yet")
        case .success(let projections):
            for (projection, checkpoint) in projections {
                let lag = max(0, counts.head.position - checkpoint.position)
                lines.append("  \(readModel.name) (\(readModel.file)): \(projection) at \(checkpoint), lag \(lag)")
            }
        }
    }
    return lines
}

/// `name count` rows, names aligned, sorted by name.
private func table(_ counts: [String: Int]) -> [String] {
    let width = counts.keys.map(\.count).max() ?? 0
    return counts.sorted { $0.key < $1.key }.map { name, count in
        "  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(count)"
    }
}
