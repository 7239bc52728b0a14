import CommonsAPI
import Foundation
import Logging
import ServiceKit
import ShoppingListsService

/// The demo catalogue and lists: imports `Data/catalog.json` (or `COMMONS_CATALOG_FILE`)
/// through the shopping-lists command path when the catalogue is empty, then makes the
/// lists of `Data/lists.json` (or `COMMONS_LISTS_FILE`) through the public API, each shared
/// as it says, unless the first demo account has lists already.
func seedShoppingLists(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    if try await !seedCatalogue(api, eventStore: state.eventStore, report: report) { state.missing.append("Data/catalog.json") }
    guard
        let (file, _) = try state.demoFile(
            DemoListsFile.self, "lists.json", overriddenBy: "COMMONS_LISTS_FILE", step: "shopping-lists",
            report: report)
    else { return }
    let first = try await state.accessToken(of: DemoAccounts.people[0].email, api: api)
    let existing = try await api.get("/v1/lists", token: first)
    guard existing.status == 200 else { throw CommandFailure("shopping-lists: listing lists answered \(existing.status): \(existing.detail)") }
    if try !existing.itemIds().isEmpty {
        report("shopping-lists: demo lists exist already")
        return
    }
    for demo in file.lists {
        let owner = try await state.accessToken(of: demo.owner, api: api)
        let list = try await api.post("/v1/lists", ["name": demo.name], token: owner)
        guard list.status == 201 else { throw CommandFailure("shopping-lists: making \(demo.name) answered \(list.status): \(list.detail)") }
        let listId = try list.id()
        var added = 0
        for item in demo.items {
            var productId: UUID?
            if let words = item.product {
                let query = words.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? words
                let found = try await api.get("/v1/products?q=\(query)&limit=1")
                guard found.status == 200, let product = try found.decode(Page<Product>.self).items.first else { continue }
                productId = product.id
            }
            let text = productId == nil ? item.text : nil
            let made = try await api.post(
                "/v1/lists/\(listId)/items", NewListItem(productId: productId, text: text, quantity: item.quantity), token: owner)
            if made.status == 201 { added += 1 }
        }
        for email in demo.sharedWith {
            let me = try await api.get("/v1/me", token: try await state.accessToken(of: email, api: api))
            guard me.status == 200 else { continue }
            let shared = try await api.post("/v1/lists/\(listId)/members", NewListMember(accountId: try me.decode(Me.self).id), token: owner)
            if shared.status != 200 { report("shopping-lists: sharing \(demo.name) with \(email) answered \(shared.status): \(shared.detail)") }
        }
        let sharing = demo.sharedWith.isEmpty ? "" : ", shared with \(demo.sharedWith.joined(separator: ", "))"
        report("shopping-lists: \"\(demo.name)\" (\(demo.owner)\(sharing), \(added) items)")
    }
}

/// `Data/lists.json`: the demo shopping lists.
struct DemoListsFile: Decodable, Sendable {
    struct List: Decodable, Sendable {
        /// The email of the demo account that makes it.
        var owner: String
        var name: String
        var sharedWith: [String]
        var items: [Item]
    }

    /// A catalogue product (the first that searching `product` finds) or free `text`.
    struct Item: Decodable, Sendable {
        var product: String?
        var text: String?
        var quantity: Int
    }

    var lists: [List]
}

/// Imports the catalogue when the service has no products yet, then waits until it shows
/// them. False when there is no catalogue file to import.
private func seedCatalogue(_ api: SeedClient, eventStore: EventStoreLocation, report: (String) -> Void) async throws -> Bool {
    let probe = try await api.get("/v1/products?limit=1")
    guard probe.status == 200 else { throw CommandFailure("shopping-lists: searching products answered \(probe.status): \(probe.detail)") }
    guard try probe.itemIds().isEmpty else {
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
