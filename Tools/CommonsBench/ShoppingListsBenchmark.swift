import Contracts
import EventLog
import Foundation
import GRDB
import Logging
import ReadModel
import ServiceKit
import ShoppingListsDomain
import ShoppingListsService

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
            let query = try ShoppingListsAPI.productQuery(["q": text, "limit": "20"])
            return try pool.read { db in try ProductQueries.search(query, in: db).items.count }
        }

        /// The ceiling: the bare FTS5 match of the same words, first 20 row ids by rank.
        public func rawMatch(_ text: String) throws -> Int {
            let expression = try FullTextQuery.parse(text)?.expression() ?? ""
            return try pool.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM shop_products_fts WHERE shop_products_fts MATCH ? ORDER BY rank LIMIT 20",
                    arguments: [expression]
                ).count
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

    /// One client's edits through the command path (load the list, decide, append with the
    /// version seen, retry on a concurrent change): quantity changes of its list's 20 items.
    /// Every 100 edits it starts a new list, as lists are short-lived in real use.
    public static func listEditor(store: any EventStore) throws -> @Sendable () async throws -> Void {
        let commands = ShoppingListCommands(store: store, sealer: TextSealer(vault: try ServiceRuntime.vault(beside: store, secrets: .throwaway()))) {
            _ in false
        }
        let session = EditSession(commands: commands)
        return { try await session.edit() }
    }

    /// The list a client is editing, and how far it got.
    private actor EditSession {
        let commands: ShoppingListCommands
        let owner = UUID()
        var list = UUID()
        var items: [UUID] = []
        var edits = 0

        init(commands: ShoppingListCommands) { self.commands = commands }

        func edit() async throws {
            if edits % 100 == 0 {
                list = UUID()
                items = (0..<20).map { _ in UUID() }
                var setup = [ClientCommand(commandId: "create", command: .create(name: "Benchmark"))]
                for (n, item) in items.enumerated() {
                    setup.append(
                        ClientCommand(commandId: "add-\(n)", command: .addItem(itemId: item, productId: UUID(), text: nil, quantity: 500, note: nil)))
                }
                _ = try await commands.execute(setup, on: list, by: owner, metadata: .init())
            }
            edits += 1
            let change = ShoppingListCommand.changeQuantity(itemId: items[edits % items.count], delta: edits.isMultiple(of: 2) ? 1 : -1)
            let outcome = try await commands.execute(
                [ClientCommand(commandId: UUID().uuidString, command: change)], on: list, by: owner, metadata: .init())
            if case .rejected(let error) = outcome.results.first { throw error }
        }
    }

    /// The ceiling of an edit: appending the same event to a client's own stream with no
    /// load, decision or version check.
    public static func rawAppend(store: any EventStore) -> @Sendable () async throws -> Void {
        let list = UUID()
        let event = ShoppingListItemQuantityChanged(listId: list, itemId: UUID(), delta: 1)
        return {
            _ = try await store.append(to: "benchraw-\(list.lowercasedText)", expected: .any, events: [try EventCatalog.encode(event)])
        }
    }
}
