import ArgumentParser
import EventLog
import ReadModel

/// `commons events parked PROJECTION`: the events a projection skips now.
struct EventsParked: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parked", abstract: "List the events a projection skips now, with the reasons.")

    @OptionGroup var store: EventStoreOption

    @Argument(help: "The projection's name.")
    var projection: String

    func run() async throws {
        try await store.withStore { store in
            let parked = try await ProjectionParking.parked(for: projection, in: store)
            guard !parked.isEmpty else {
                print("no events parked for projection \(projection)")
                return
            }
            for (id, reason) in parked.map({ ($0.key.lowercasedText, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                print("\(id) \(reason)")
            }
        }
    }
}
