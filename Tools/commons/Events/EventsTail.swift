import ArgumentParser
import Dispatch
import EventLog
import Foundation

/// `commons events tail`: events in global order after a checkpoint, optionally followed live.
struct EventsTail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print events in global order after a checkpoint; --follow keeps following live.")

    @OptionGroup var store: EventStoreOption

    @Flag(help: "Keep printing new events until interrupted (SIGINT or SIGTERM).")
    var follow = false

    @Option(help: "Only this stream.")
    var stream: String?

    @Option(name: .customLong("category"), help: "Only streams of this category (repeatable).")
    var categories: [String] = []

    @Option(name: .customLong("type"), help: "Only events of this type (repeatable).")
    var types: [String] = []

    @Option(help: "Start after this checkpoint (\"transaction:position\" or a position). Default: the start of the log.")
    var from: String?

    @Option(help: "Stop after this many events.")
    var limit: Int?

    @Flag(help: "Print NDJSON in the export format.")
    var json = false

    func run() async throws {
        let from = try parseCheckpoint(from, option: "--from") ?? .start
        if let limit, limit < 1 { throw CommandFailure("--limit must be at least 1") }
        let selection = EventSelection(stream: stream, categories: categories, types: types)
        let format = EventFormat(json: json)
        try await store.withStore { store in
            if follow {
                try await followLog(store, after: from, selection: selection, limit: limit, format: format)
            } else {
                try await printLog(store, after: from, selection: selection, limit: limit, format: format)
            }
        }
    }
}

/// Which events `tail` prints: the filters the log applies, and the one stream, if any.
struct EventSelection: Sendable {
    var stream: String?
    var filter: EventFilter

    init(stream: String?, categories: [String], types: [String]) {
        self.stream = stream
        let categories = categories.isEmpty ? stream.map { [RecordedEvent.category(of: $0)] } : categories
        filter = EventFilter(categories: categories.map(Set.init), types: types.isEmpty ? nil : Set(types))
    }

    func matches(_ event: RecordedEvent) -> Bool {
        (stream == nil || event.stream == stream) && filter.matches(category: event.category, type: event.type)
    }
}

/// Prints what `selection` matches after `checkpoint`, up to the end of the log or `limit` events.
func printLog(_ store: any EventStore, after checkpoint: Checkpoint, selection: EventSelection, limit: Int?, format: EventFormat) async throws {
    let output = LineOutput()
    var remaining = limit ?? .max
    if let stream = selection.stream {
        for event in try await store.read(stream: stream) where event.checkpoint > checkpoint && selection.matches(event) {
            guard remaining > 0 else { break }
            try format.write(event, to: output)
            remaining -= 1
        }
    } else {
        try await forEachPage(of: store, after: checkpoint, filter: selection.filter) { events in
            for event in events.prefix(remaining) { try format.write(event, to: output) }
            remaining -= min(remaining, events.count)
            return remaining > 0
        }
    }
    try output.flush()
}

/// Prints what `selection` matches after `checkpoint`, then follows the log live until
/// SIGINT or SIGTERM, or until `limit` events have been printed.
func followLog(_ store: any EventStore, after checkpoint: Checkpoint, selection: EventSelection, limit: Int?, format: EventFormat) async throws {
    let task = Task {
        let output = LineOutput()
        var remaining = limit ?? .max
        for try await page in store.subscribe(after: checkpoint, filter: selection.filter) {
            for event in page.events where selection.matches(event) && remaining > 0 {
                try format.write(event, to: output)
                remaining -= 1
            }
            try output.flush()
            if remaining == 0 { return }
        }
    }
    try await awaitCancellingOnInterrupt(task)
}

/// Waits for `task`, cancelling it on SIGINT or SIGTERM; an interrupted task ends normally.
func awaitCancellingOnInterrupt(_ task: Task<Void, any Error>) async throws {
    let interrupts = InterruptSignals()
    let watcher = Task { if await interrupts.next() != nil { task.cancel() } }
    defer { watcher.cancel() }
    do {
        try await task.value
    } catch {
        if !task.isCancelled { throw error }
    }
}
