import ArgumentParser
import EventLog

/// `commons events stream NAME`: one whole stream, with versions.
struct EventsStream: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream", abstract: "Print one whole stream, with versions; exits 1 if it has no events.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The stream's name, e.g. listing-0b6f….")
    var name: String

    @Flag(help: "Print NDJSON in the export format.")
    var json = false

    func run() async throws {
        let format = EventFormat(json: json)
        try await store.withStore { store in
            let events = try await store.read(stream: name)
            guard !events.isEmpty else { throw CommandFailure("stream \(name) has no events") }
            let output = LineOutput()
            for event in events { try format.write(event, to: output) }
            try output.flush()
        }
    }
}
