import ArgumentParser
import EventLog

/// `commons events show ID`: one event in full.
struct EventsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print one event in full, as pretty JSON in the export format; exits 1 if not found.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The event's id (a UUID).")
    var id: String

    func run() async throws {
        let id = try parseEventId(id)
        try await store.withStore { store in
            guard let event = try await store.event(id: id) else { throw CommandFailure("no event with id \(id.lowercasedText)") }
            let output = LineOutput()
            try output.write(try ExportedEvent.encoder(pretty: true).encode(ExportedEvent(event)))
            try output.flush()
        }
    }
}
