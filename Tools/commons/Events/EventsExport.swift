import ArgumentParser
import EventLog
import Foundation
import ServiceKit

/// `commons events export`: the log, or a range of it, as NDJSON.
struct EventsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write events in global order as NDJSON, one exported event per line, after the photos (blobs) they name.")

    @OptionGroup var store: EventStoreOption

    @Option(help: "Start after this checkpoint (\"transaction:position\" or a position). Default: the start of the log.")
    var from: String?

    @Option(help: "Stop at this checkpoint, including its event. Default: the end of the log.")
    var to: String?

    @Option(help: "Write to this file instead of stdout; it appears only once complete.")
    var output: String?

    @Flag(inversion: .prefixedNo, help: "Write every photo (blob) before the events. Default: only when exporting from the start.")
    var blobs: Bool?

    func run() async throws {
        let from = try parseCheckpoint(from, option: "--from") ?? .start
        let to = try parseCheckpoint(to, option: "--to")
        let withBlobs = blobs ?? (self.from == nil)
        try await store.withStore { store in
            let blobStore = withBlobs ? try ServiceRuntime.blobStore(beside: store) : nil
            let progress = ProgressReport("commons events export")
            guard let output else {
                let count = try await exportEvents(from: store, after: from, through: to, blobs: blobStore, to: LineOutput(), progress: progress)
                progress.finish(done: count.events)
                return
            }
            let count = try await exportEvents(from: store, after: from, through: to, blobs: blobStore, toFile: output, progress: progress)
            progress.finish(done: count.events)
            print("exported \(count.blobs) blobs and \(count.events) events to \(output)")
        }
    }
}

/// How many lines of each kind an export wrote.
struct ExportCount {
    var blobs = 0
    var events = 0
}

/// Writes every blob of `blobs` (if given), then the events after `checkpoint`, through
/// `last` if given, as export lines, reporting the events to `progress`; returns how many of each.
@discardableResult
func exportEvents(
    from store: any EventStore, after checkpoint: Checkpoint, through last: Checkpoint?, blobs: (any BlobStore)?,
    to output: LineOutput, progress: ProgressReport? = nil
) async throws -> ExportCount {
    let encoder = ExportedEvent.encoder()
    // All of them after the start (fewer with `last`): the whole to measure against.
    let total = progress == nil ? 0 : try await store.eventCount(after: checkpoint, limit: .max)
    var count = ExportCount()
    if let blobs {
        var after: String?
        while true {
            let page = try await blobs.blobs(after: after, limit: 64)
            for blob in page { try output.write(try encoder.encode(ExportedBlob(blob))) }
            count.blobs += page.count
            guard let last = page.last else { break }
            after = last.address
        }
    }
    try await forEachPage(of: store, after: checkpoint) { events in
        for event in events {
            if let last, event.checkpoint > last { return false }
            try output.write(try encoder.encode(ExportedEvent(event)))
            count.events += 1
        }
        progress?.report(done: count.events, fraction: Double(count.events) / Double(max(total, 1)))
        return true
    }
    try output.flush()
    return count
}

/// Exports into a file at `path`, through a temporary file beside it, so that a failed
/// export never leaves a file that looks complete.
func exportEvents(
    from store: any EventStore, after checkpoint: Checkpoint, through last: Checkpoint?, blobs: (any BlobStore)?,
    toFile path: String, progress: ProgressReport? = nil
) async throws -> ExportCount {
    let temporary = path + ".partial"
    guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
        throw CommandFailure("cannot create \(temporary)")
    }
    do {
        let count = try await exportEvents(from: store, after: checkpoint, through: last, blobs: blobs, to: LineOutput(handle), progress: progress)
        try handle.close()
        guard rename(temporary, path) == 0 else { throw CommandFailure("cannot move \(temporary) to \(path): \(String(cString: strerror(errno)))") }
        return count
    } catch {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporary)
        throw error
    }
}
