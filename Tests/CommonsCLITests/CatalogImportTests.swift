import EventLog
import EventLogTestSupport
import Foundation
import Testing

/// `commons catalog import FILE`, run as a process on both backends.
@Suite("commons catalog import")
struct CatalogImportTests {
    static let store = "7d3f2c1a-0b5e-4c1d-9a8f-2e6b4c3d1a01"
    static let milk = "7d3f2c1a-0b5e-4c1d-9a8f-2e6b4c3d1a02"
    static let bread = "7d3f2c1a-0b5e-4c1d-9a8f-2e6b4c3d1a03"

    /// A two-product catalogue file, the milk at `milkPrice` cents.
    static func file(milkPrice: Int, in directory: URL) throws -> String {
        func product(_ id: String, _ name: String, _ cents: Int) -> [String: Any] {
            [
                "id": id, "name": name, "brand": "Polderhoeve", "category": "Dairy", "unit": "1 l", "caloriesPerUnit": 640,
                "offers": [["storeId": store, "price": ["amountMinor": cents, "currency": "EUR"]]],
            ]
        }
        let catalog: [String: Any] = [
            "stores": [
                [
                    "id": store, "retailer": "Buurtmarkt", "name": "Buurtmarkt Binnenstad", "address": "Oudegracht 10, Utrecht",
                    "lat": 52.0907, "lon": 5.1214,
                ]
            ],
            "products": [product(milk, "Whole milk", milkPrice), product(bread, "Wholemeal bread", 229)],
        ]
        let path = directory.appendingPathComponent("catalog-\(milkPrice).json")
        try JSONSerialization.data(withJSONObject: catalog).write(to: path)
        return path.path
    }

    @Test("importing appends the catalogue; the same file again appends nothing; a new price is a price change", arguments: Backend.allCases)
    func importTwiceThenChange(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let directory = try scratchDirectory()
        let first = try await commons("catalog", "import", try Self.file(milkPrice: 119, in: directory), log: log)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("2 new"))
        let afterFirst = try await allEvents(log.store, atLeast: 3)
        #expect(afterFirst.map(\.type).sorted() == ["ProductListed", "ProductListed", "StoreListed"])

        let again = try await commons("catalog", "import", try Self.file(milkPrice: 119, in: directory), log: log)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("0 events appended"))
        #expect(try await allEvents(log.store).count == 3)

        let changed = try await commons("catalog", "import", try Self.file(milkPrice: 105, in: directory), log: log)
        #expect(changed.status == 0, "\(changed)")
        let milk = try await log.store.read(stream: "product-\(Self.milk)")
        #expect(milk.map(\.type) == ["ProductListed", "ProductPriceChanged"])
        let body = try #require(try JSONSerialization.jsonObject(with: milk[1].data) as? [String: Any])
        #expect((body["price"] as? [String: Any])?["amountMinor"] as? Int == 105)
        #expect((body["previous"] as? [String: Any])?["amountMinor"] as? Int == 119)
        await log.close()
    }

    @Test("a file with bad fields is refused with the fields named, and nothing is appended")
    func invalidFile() async throws {
        let log = try await Backend.sqlite.makeLog()
        let directory = try scratchDirectory()
        let path = directory.appendingPathComponent("bad.json")
        try Data(
            #"{"stores": [], "products": [{"id": "7d3f2c1a-0b5e-4c1d-9a8f-2e6b4c3d1a09", "name": "", "brand": "B", "category": "C", "unit": "each", "caloriesPerUnit": -5, "offers": []}]}"#
                .utf8
        ).write(to: path)
        let refused = try await commons("catalog", "import", path.path, log: log)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("products[0].name") && refused.stderr.contains("products[0].caloriesPerUnit"), "\(refused)")
        #expect(try await allEvents(log.store).isEmpty)
        let missing = try await commons("catalog", "import", directory.appendingPathComponent("none.json").path, log: log)
        #expect(missing.status != 0 && missing.stderr.contains("cannot read"))
        await log.close()
    }
}
