import ArgumentParser
import EventLog
import ReadModel

/// `commons events unpark PROJECTION EVENT_ID`: takes a parked event back.
struct EventsUnpark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpark", abstract: "Take a parked event back; the projection's next rebuild applies it again.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The projection's name.")
    var projection: String

    @Argument(help: "The id of the parked event.")
    var eventId: String

    func run() async throws {
        let id = try parseEventId(eventId)
        try await store.withStore { store in
            guard try await ProjectionParking.parked(for: projection, in: store)[id] != nil else {
                throw CommandFailure("event \(id.lowercasedText) is not parked for projection \(projection)")
            }
            let result = try await ProjectionParking.unpark(id, projection: projection, in: store, metadata: operatorMetadata)
            print("unparked \(id.lowercasedText) for projection \(projection) at \(result.checkpoint)")
        }
    }
}
