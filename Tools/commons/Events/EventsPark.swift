import ArgumentParser
import EventLog
import ReadModel

/// `commons events park PROJECTION EVENT_ID --reason TEXT`: lets a projection skip an event it cannot handle.
struct EventsPark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "park", abstract: "Record that a projection should skip an event it cannot handle, with the reason.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The projection's name.")
    var projection: String

    @Argument(help: "The id of the event to skip.")
    var eventId: String

    @Option(help: "Why the event is parked; kept in the log.")
    var reason: String

    func run() async throws {
        let id = try parseEventId(eventId)
        try await store.withStore { store in
            let result: AppendResult
            do {
                result = try await ProjectionParking.park(id, projection: projection, reason: reason, in: store, metadata: operatorMetadata)
            } catch ProjectionParking.Refusal.noSuchEvent {
                throw CommandFailure("no event with id \(id.lowercasedText)")
            } catch ProjectionParking.Refusal.unparkable(let type, let why) {
                throw CommandFailure("\(type) events cannot be parked: \(why); fix the projection instead")
            }
            print("parked \(id.lowercasedText) for projection \(projection) at \(result.checkpoint)")
        }
    }
}

/// What the events that `commons` appends say about who appended them.
let operatorMetadata = EventMetadata(service: "commons")
