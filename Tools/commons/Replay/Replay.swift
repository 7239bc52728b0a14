import AccountsService
import ArgumentParser
import DonationsService
import EventLog
import Foundation
import GeoSearchService
import ListingsService
import ReadModel
import ServiceKit
import ShoppingListsService

/// `commons replay SERVICE`: rebuilds a service's read model from the log into a new file,
/// optionally as it was at a time or checkpoint, and optionally swaps it in.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a service's read model from the log into a new file.",
        discussion: "The live read model keeps serving while the new file fills; --swap then makes the new file live atomically.")

    @Argument(help: "The service: \(ServiceProjections.names.joined(separator: ", ")).")
    var service: String

    @Option(help: "Stop at this time (ISO 8601) or checkpoint (tx:pos): the read model as it was then.")
    var until: String?

    @Option(help: "The new file (default: a new file beside the live one in the data directory).")
    var into: String?

    @Flag(help: "Make the new file the live read model when done.")
    var swap = false

    @Option(help: "The data directory (default COMMONS_DATA_DIR or .commons).")
    var dataDir: String?

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        guard let projections = ServiceProjections.all[service] else {
            throw CommandFailure("no service '\(service)'; one of \(ServiceProjections.names.joined(separator: ", "))")
        }
        let limit = try parseLimit()
        let directory = URL(fileURLWithPath: dataDir ?? EnvironmentVariables().dataDirectory)
        try await store.withStore { log in
            let database = try ReadModelDatabase(directory: directory, name: service, projections: projections)
            let path = into ?? database.newFilePath()
            let head = try await log.head()
            let progress = ProgressReport("commons replay")
            // Positions are handed out in order on both logs, so far enough as a share of the whole.
            let total = Double(max(head.position, 1))
            let applied = try await ReadModelRebuild.rebuild(
                projections: projections, from: log, into: path, until: limit,
                keys: keyVault(beside: log)
            ) { applied, checkpoint in
                progress.report(done: applied, fraction: Double(checkpoint.position) / total)
            }
            progress.finish(done: applied)
            if swap {
                try database.swap(to: path)
                print("swapped in \(path) as the live read model of \(service)")
            } else {
                print("rebuilt \(service) into \(path)")
                if into == nil {
                    print("the service removes it at its next start; give --into a path elsewhere to keep a copy")
                } else {
                    print("it holds personal data that a later account deletion does not reach: delete it when done")
                }
            }
        }
    }

    /// The key vault the services use, to open listing text sealed with its owner's key;
    /// without one (no vault secret), only a projection that meets sealed text fails, saying so.
    private func keyVault(beside log: any EventStore) -> (any KeyVault)? {
        do {
            return try ServiceRuntime.vault(beside: log, environment: EnvironmentVariables())
        } catch {
            FileHandle.standardError.write(Data("commons replay: no key vault (\(error)); sealed listing text cannot be opened\n".utf8))
            return nil
        }
    }

    private func parseLimit() throws -> ReadModelRebuild.Limit {
        guard let until else { return .head }
        if let checkpoint = Checkpoint(until) { return .checkpoint(checkpoint) }
        if let date = try? Date(until, strategy: .iso8601) { return .time(date) }
        throw CommandFailure("--until '\(until)' is neither an ISO 8601 time nor a checkpoint")
    }
}

/// Which projections make up each service's read model.
enum ServiceProjections {
    static let all: [String: [any Projection]] = [
        AccountsService.name: [RevocationProjection()] + AccountsService.projections,
        GeoSearchService.name: [RevocationProjection()] + GeoSearchService.projections,
        DonationsService.name: [RevocationProjection()] + DonationsService.projections,
        ShoppingListsService.name: [RevocationProjection()] + ShoppingListsService.projections,
        ListingsService.name: [RevocationProjection()] + ListingsService.projections,
    ]

    static var names: [String] { all.keys.sorted() }
}
