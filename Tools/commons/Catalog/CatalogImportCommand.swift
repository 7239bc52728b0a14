import ArgumentParser
import EventLog
import Foundation
import ShoppingListsService

/// `commons catalog …`: operator commands on the shopping-lists catalogue.
struct CatalogGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "Operator commands on the product catalogue.", subcommands: [CatalogImportCommand.self])
}

/// `commons catalog import FILE`: brings the catalogue in the log to what FILE says, through
/// the shopping-lists service's own command path. Importing the same file again appends
/// nothing; a changed price appends a price change.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a catalogue file (e.g. Data/catalog.json); unchanged products append nothing.")

    @Argument(help: "The catalogue file (JSON: stores and products with offers).")
    var file: String

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("cannot read \(file): \(error.localizedDescription)")
        }
        try await store.withStore { log in
            let metadata = EventMetadata(correlationId: UUID().lowercasedText, service: "commons")
            do {
                let report = try await CatalogImport.run(data: data, into: log, metadata: metadata)
                print("imported \(file): \(report)")
            } catch let error as CatalogImport.InvalidCatalog {
                throw CommandFailure("\(file): \(error)")
            }
        }
    }
}
