import Contracts
import EventLog
import Foundation
import GRDB
import Logging
import ReadModel
import ServiceKit
import ShoppingListsDomain

/// The pieces of shopping-lists that `commons bench shopping` times, each beside the raw
/// operation underneath it.
public enum ShoppingListsBenchmark {
    /// A read model of the catalogue in `file`, imported into `store` through the command
    /// path and projected into a new read model in `directory`.
    public struct Catalogue: Sendable {
        let pool: DatabasePool
        public let products: Int

        /// One product search as the route runs it: parse, FTS5 match with ranking, the
        /// product summaries (cheapest offer, rating) of the first page.
        public func search(_ text: String) throws -> Int {
            let query = try ProductQuery(parameters: ["q": text, "limit": "20"])
            return try pool.read { db in try ProductQueries.search(query, in: db).items.count }
        }

        /// The ceiling: the bare FTS5 match of the same words, first 20 row ids by rank.
        public func rawMatch(_ text: String) throws -> Int {
            let expression = try ProductQuery(parameters: ["q": text]).matchExpression ?? ""
            return try pool.read { db in
                try Int64.fetchAll(db, sql: "SELECT rowid FROM shop_products_fts WHERE shop_products_fts MATCH ? ORDER BY rank LIMIT 20",
                                   arguments: [expression]).count
            }
        }
    }

    public static func catalogue(data: Data, store: any EventStore, directory: URL) async throws -> Catalogue {
        let file = try CatalogImport.read(data)
        _ = try await CatalogImport.run(file, into: store)
        let path = directory.appendingPathComponent("shopping-bench-\(UUID().uuidString).sqlite").path
        _ = try await ReadModelRebuild.rebuild(projections: ShoppingListsService.projections, from: store, into: path, until: .head)
        let pool = try ReadModelDatabase.open(path: path, projections: ShoppingListsService.projections)
        return Catalogue(pool: pool, products: file.products.count)
    }

    /// A shared list with `items` items, and a function that makes one member's edit to it
    /// through the command path (load, decide, append with the version seen, retry on a
    /// concurrent change): a quantity change of item `n % items`.
    public static func sharedListEditor(store: any EventStore, items: Int) async throws -> @Sendable (Int) async throws -> Void {
        let commands = ShoppingListCommands(store: store, sealer: TextSealer(vault: try ServiceRuntime.vault(beside: store))) { _ in false }
        let owner = UUID()
        let list = UUID()
        let itemIds = (0..<items).map { _ in UUID() }
        var setup = [ClientCommand(commandId: "create", command: .create(name: "Benchmark"))]
        for (n, item) in itemIds.enumerated() {
            setup.append(ClientCommand(commandId: "add-\(n)", command: .addItem(itemId: item, productId: UUID(), text: nil, quantity: 500, note: nil)))
        }
        _ = try await commands.execute(setup, on: list, by: owner, metadata: .init())
        return { n in
            let delta = n.isMultiple(of: 2) ? 1 : -1
            let outcome = try await commands.execute([ClientCommand(commandId: UUID().uuidString, command: .changeQuantity(itemId: itemIds[n % items], delta: delta))],
                                                     on: list, by: owner, metadata: .init())
            if case .rejected(let error) = outcome.results.first { throw error }
        }
    }

    /// The ceiling of an edit: appending the same event to a stream with no check at all.
    public static func rawAppend(store: any EventStore) -> @Sendable () async throws -> Void {
        let list = UUID()
        let event = ShoppingListItemQuantityChanged(listId: list, itemId: UUID(), delta: 1)
        return {
            _ = try await store.append(to: "benchraw-\(list.uuidString.lowercased())", expected: .any, events: [try EventCatalog.encode(event)])
        }
    }
}
