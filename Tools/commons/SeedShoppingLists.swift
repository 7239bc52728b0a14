import Foundation
import Logging
import ServiceKit
import ShoppingListsService

/// The demo catalogue and lists: imports `Data/catalog.json` (or `COMMONS_CATALOG_FILE`)
/// through the shopping-lists command path when the catalogue is empty, then makes a
/// shared list for Ada and Grace through the public API, unless Ada has lists already.
func seedShoppingLists(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    if try await !seedCatalogue(api, eventStore: state.eventStore, report: report) { state.missing.append("Data/catalog.json") }
    let ada = try await state.accessToken(of: "ada@commons.local", api: api)
    let grace = try await state.accessToken(of: "grace@commons.local", api: api)
    let existing = try await api.get("/v1/lists", token: ada)
    guard existing.status == 200 else { throw CommandFailure("shopping-lists: listing lists answered \(existing.status): \(existing.detail)") }
    if try !existing.decode(Page.self).items.isEmpty {
        report("shopping-lists: demo lists exist already")
        return
    }
    let list = try await api.post("/v1/lists", ["name": "Weekend groceries"], token: ada)
    guard list.status == 201 else { throw CommandFailure("shopping-lists: making a list answered \(list.status): \(list.detail)") }
    let listId = try list.decode(Identified.self).id
    var added = 0
    for words in ["whole milk", "wholemeal bread", "free-range eggs", "bananas", "ground coffee"] {
        let found = try await api.get("/v1/products?q=\(words.replacingOccurrences(of: " ", with: "%20"))&limit=1")
        guard found.status == 200, let product = try found.decode(Page.self).items.first else { continue }
        let item = try await api.post("/v1/lists/\(listId)/items", NewItem(productId: product.id, text: nil, quantity: 2), token: ada)
        if item.status == 201 { added += 1 }
    }
    _ = try await api.post("/v1/lists/\(listId)/items", NewItem(productId: nil, text: "Birthday candles", quantity: 1), token: ada)
    let me = try await api.get("/v1/me", token: grace)
    if me.status == 200 {
        _ = try await api.post("/v1/lists/\(listId)/members", ["accountId": try me.decode(Identified.self).id], token: ada)
    }
    let snacks = try await api.post("/v1/lists", ["name": "Office snacks"], token: grace)
    if snacks.status == 201 {
        _ = try await api.post("/v1/lists/\(try snacks.decode(Identified.self).id)/items", NewItem(productId: nil, text: "Fruit bowl", quantity: 1), token: grace)
    }
    report("shopping-lists: \"Weekend groceries\" (Ada, shared with Grace, \(added + 1) items) and \"Office snacks\" (Grace)")
}

/// Imports the catalogue when the service has no products yet, then waits until it shows
/// them. False when there is no catalogue file to import.
private func seedCatalogue(_ api: SeedClient, eventStore: EventStoreLocation, report: (String) -> Void) async throws -> Bool {
    let probe = try await api.get("/v1/products?limit=1")
    guard probe.status == 200 else { throw CommandFailure("shopping-lists: searching products answered \(probe.status): \(probe.detail)") }
    guard try probe.decode(Page.self).items.isEmpty else {
        report("shopping-lists: the catalogue is imported already")
        return true
    }
    guard let file = DemoDataFile.locate("catalog.json", overriddenBy: "COMMONS_CATALOG_FILE"),
          let data = FileManager.default.contents(atPath: file.path)
    else {
        report("shopping-lists: Data/catalog.json not found (set COMMONS_CATALOG_FILE); the catalogue stays empty")
        return false
    }
    let path = file.path
    var logger = Logger(label: "commons")
    logger.logLevel = .critical
    let store = try await eventStore.open(logger: logger)
    let imported: CatalogImport.Report
    let head: String
    do {
        imported = try await CatalogImport.run(data: data, into: store)
        head = try await store.head().description
    } catch {
        await store.shutdown()
        throw CommandFailure("shopping-lists: importing \(path): \(error)")
    }
    await store.shutdown()
    report("shopping-lists: imported \(path): \(imported)")
    // The lists below name products, so the service must have read the whole import first.
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if try await api.get("/v1/products?limit=1", headers: ["Commons-Min-Position": head]).status == 200 { return true }
        try await Task.sleep(for: .milliseconds(200))
    }
    throw CommandFailure("shopping-lists: the service did not read the imported catalogue within 60 s")
}

private struct Page: Decodable {
    struct Item: Decodable { var id: String }
    var items: [Item]
}

private struct Identified: Decodable { var id: String }

private struct NewItem: Encodable {
    var productId: String?
    var text: String?
    var quantity: Int
}
