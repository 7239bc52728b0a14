import ArgumentParser
import EventLog
import Foundation

/// `commons events export`: the log, or a range of it, as NDJSON.
struct EventsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write events in global order as NDJSON, one exported event per line.")

    @OptionGroup var store: EventStoreOption

    @Option(help: "Start after this checkpoint (\"transaction:position\" or a position). Default: the start of the log.")
    var from: String?

    @Option(help: "Stop at this checkpoint, including its event. Default: the end of the log.")
    var to: String?

    @Option(help: "Write to this file instead of stdout; it appears only once complete.")
    var output: String?

    func run() async throws {
        let from = try parseCheckpoint(from, option: "--from") ?? .start
        let to = try parseCheckpoint(to, option: "--to")
        try await store.withStore { store in
            guard let output else {
                try await exportEvents(from: store, after: from, through: to, to: LineOutput())
                return
            }
            let count = try await exportEvents(from: store, after: from, through: to, toFile: output)
            print("exported \(count) events to \(output)")
        }
    }
}

/// Writes the events after `checkpoint`, through `last` if given, as export lines; returns how many.
@discardableResult
func exportEvents(from store: any EventStore, after checkpoint: Checkpoint, through last: Checkpoint?, to output: LineOutput) async throws -> Int {
    let encoder = ExportedEvent.encoder()
    var count = 0
    try await forEachPage(of: store, after: checkpoint) { events in
        for event in events {
            if let last, event.checkpoint > last { return false }
            try output.write(try encoder.encode(ExportedEvent(event)))
            count += 1
        }
        return true
    }
    try output.flush()
    return count
}

/// Exports into a file at `path`, through a temporary file beside it, so that a failed
/// export never leaves a file that looks complete.
func exportEvents(from store: any EventStore, after checkpoint: Checkpoint, through last: Checkpoint?, toFile path: String) async throws -> Int {
    let temporary = path + ".partial"
    guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
        throw CommandFailure("cannot create \(temporary)")
    }
    do {
        let count = try await exportEvents(from: store, after: checkpoint, through: last, to: LineOutput(handle))
        try handle.close()
        guard rename(temporary, path) == 0 else { throw CommandFailure("cannot move \(temporary) to \(path): \(String(cString: strerror(errno)))") }
        return count
    } catch {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporary)
        throw error
    }
}
