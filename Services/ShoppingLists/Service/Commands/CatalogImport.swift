import Contracts
import EventLog
import Foundation
import ServiceKit
import ShoppingListsDomain

/// Imports a catalogue file through the same command path as everything else: each store
/// and product stream is loaded, compared with the file, and only the differences are
/// appended (with the version seen). Importing the same file again appends nothing; a
/// changed price appends a `ProductPriceChanged`, so the history stays in the log.
public enum CatalogImport {
    /// What an import did.
    public struct Report: Sendable, Equatable, CustomStringConvertible {
        public var storesListed = 0
        public var storesUnchanged = 0
        public var productsListed = 0
        public var productsChanged = 0
        public var productsUnchanged = 0
        public var priceChanges = 0
        public var events = 0
        /// Past every event the import appended (nil when it appended none): what a client
        /// sends as `Commons-Min-Position` to read the catalogue it imported. The log's head
        /// would not do on PostgreSQL, where it stops before a transaction still open elsewhere.
        public var checkpoint: Checkpoint?

        public var description: String {
            "stores: \(storesListed) listed or changed, \(storesUnchanged) unchanged; "
                + "products: \(productsListed) new, \(productsChanged) changed (\(priceChanges) price changes), "
                + "\(productsUnchanged) unchanged; \(events) events appended"
        }

        /// Moves ``checkpoint`` past `appended`.
        mutating func reached(_ appended: Checkpoint) {
            checkpoint = max(checkpoint ?? appended, appended)
        }
    }

    /// A file that cannot be imported, with every problem.
    public struct InvalidCatalog: Error, CustomStringConvertible {
        public let problems: [String: [String]]
        public var description: String {
            let lines = problems.sorted { $0.key < $1.key }.prefix(20).map { "\($0.key): \($0.value.joined(separator: "; "))" }
            return "the catalogue has \(problems.count) invalid fields: " + lines.joined(separator: ", ")
        }
    }

    /// Reads a catalogue file; throws ``InvalidCatalog`` or a decoding error.
    public static func read(_ data: Data) throws -> CatalogFile {
        let file: CatalogFile
        do {
            file = try JSONDecoder().decode(CatalogFile.self, from: data)
        } catch let error as DecodingError {
            throw InvalidCatalog(problems: ["file": ["is not a catalogue: \(error)"]])
        }
        let problems = file.problems()
        guard problems.isEmpty else { throw InvalidCatalog(problems: problems) }
        return file
    }

    /// Reads the catalogue file `data` and imports it; throws ``InvalidCatalog`` before
    /// appending anything when the file is not valid.
    public static func run(data: Data, into store: any EventStore, metadata: EventMetadata = .init()) async throws -> Report {
        try await run(try read(data), into: store, metadata: metadata)
    }

    /// Brings the catalogue in `store` to what `file` says. Products are independent streams,
    /// so several are compared and appended at once.
    public static func run(_ file: CatalogFile, into store: any EventStore, metadata: EventMetadata = .init()) async throws -> Report {
        var report = Report()
        let handler = CommandHandler(store: store)
        for entry in file.stores {
            let stream = ShoppingStreams.store(entry.id)
            let appended = try await handler.handle(stream, load: { try await load(stream, from: store) }) {
                events, _ -> CommandHandler.Decision<Checkpoint?> in
                guard let listing = entry.listing(replacing: events.last as? StoreListed) else { return .answer(nil) }
                return .append([try EventCatalog.encode(listing, metadata: metadata)]) { $0.checkpoint }
            }
            if let appended {
                report.storesListed += 1
                report.events += 1
                report.reached(appended)
            } else {
                report.storesUnchanged += 1
            }
        }
        try await withThrowingTaskGroup(of: ProductOutcome.self) { group in
            var pending = file.products.makeIterator()
            func next() -> Bool {
                guard let entry = pending.next() else { return false }
                group.addTask { try await importProduct(entry, into: store, metadata: metadata) }
                return true
            }
            for _ in 0..<concurrency where !next() { break }
            while let outcome = try await group.next() {
                switch outcome {
                case .unchanged: report.productsUnchanged += 1
                case let .appended(isNew, events, priceChanges, checkpoint):
                    if isNew { report.productsListed += 1 } else { report.productsChanged += 1 }
                    report.events += events
                    report.priceChanges += priceChanges
                    report.reached(checkpoint)
                }
                _ = next()
            }
        }
        return report
    }

    /// Products compared and appended at once.
    static let concurrency = 8

    private enum ProductOutcome: Sendable {
        case unchanged
        case appended(isNew: Bool, events: Int, priceChanges: Int, checkpoint: Checkpoint)
    }

    private static func importProduct(
        _ entry: CatalogFile.Product, into store: any EventStore, metadata: EventMetadata
    ) async throws -> ProductOutcome {
        let stream = ShoppingStreams.product(entry.id)
        return try await CommandHandler(store: store).handle(stream, load: { try await load(stream, from: store) }) { events, version in
            let changes = CatalogProductState.replay(events).changes(toMatch: entry)
            guard !changes.isEmpty else { return .answer(.unchanged) }
            return .append(try changes.map { try EventCatalog.encode($0, metadata: metadata) }) { result in
                .appended(
                    isNew: version == 0, events: changes.count, priceChanges: changes.filter { $0 is ProductPriceChanged }.count,
                    checkpoint: result.checkpoint)
            }
        }
    }

    /// A stream's events and version, for the handler.
    private static func load(_ stream: String, from store: any EventStore) async throws -> ([any EventContract], Int64) {
        let (events, _, version) = try await ShoppingStreams.load(stream, from: store)
        return (events, version)
    }
}
