import ArgumentParser
import CommonsBench
import EventLog
import EventLogSQLite
import Foundation
import ShoppingListsService

/// `commons bench shopping`: product searches/s over the shipped catalogue and list edits/s,
/// each by 8 concurrent clients (edits each on its own list), each beside the raw operation underneath
/// (a bare FTS5 match; an append with no load, decision or check).
struct BenchShopping: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shopping", abstract: "Measure product search and shared-list edits against bare FTS5 matches and bare appends.")

    @Option(help: "The catalogue to search.")
    var catalog = "Data/catalog.json"

    @Option(help: "Seconds to measure each side of each case.")
    var seconds: Double = 5

    @Option(help: "Concurrent clients, searching, then each editing its own list.")
    var clients = 8

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard (1...64).contains(clients) else { throw ValidationError("--clients must be from 1 to 64") }
    }

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-shopping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("events.sqlite").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: catalog))
        Bench.note("importing \(catalog) and building the read model")
        let catalogue = try await ShoppingListsBenchmark.catalogue(data: data, store: store, directory: directory)
        let searchers = clients
        // Words people type, whole and half-typed, so both prefix and full matches are measured.
        let words = ["milk", "whole mil", "bread", "choc", "olive oil", "pasta", "yog", "coffee beans", "apple", "frozen pi", "tea", "butter"]
        Bench.note("searching")
        let searches = try await Bench.measure(workers: searchers, for: duration) { worker in
            var n = worker
            return {
                n += 1; _ = try catalogue.search(words[n % words.count]); return 1
            }
        }
        let matches = try await Bench.measure(workers: searchers, for: duration) { worker in
            var n = worker
            return {
                n += 1; _ = try catalogue.rawMatch(words[n % words.count]); return 1
            }
        }
        Bench.note("editing")
        let editors = try (0..<clients).map { _ in try ShoppingListsBenchmark.listEditor(store: store) }
        let edits = try await Bench.measure(workers: clients, for: duration) { worker in
            let edit = editors[worker]
            return {
                try await edit(); return 1
            }
        }
        let appends = try await Bench.measure(workers: clients, for: duration) { _ in
            let append = ShoppingListsBenchmark.rawAppend(store: store)
            return {
                try await append(); return 1
            }
        }
        await store.shutdown()

        print("shopping lists: \(catalogue.products) products; \(searchers) searchers, \(clients) editors (SQLite log); \(seconds) s per measurement")
        print(
            BenchRow.table([
                BenchRow(name: "product searches (first page of 20)", ours: searches, ceiling: matches),
                BenchRow(name: "list edits, \(clients) clients", ours: edits, ceiling: appends),
            ]))
        print("ceilings: a bare FTS5 MATCH of the same words (row ids only); an append of the same event with no load, decision or version check")
    }
}
