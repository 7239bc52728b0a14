import Contracts
import EventLogTestSupport
import Foundation
import GRDB
import ReadModel
import ServiceKit
import Testing

@testable import GeoSearchService

@Suite("nearby searches from memory")
struct ListingPlacesTests {
    /// The answers (ids in order) of a few nearby searches after each change of a scripted
    /// history: posts, an edit that moves a listing into a new category, status changes, a
    /// deleted account, each search waiting for the change's position.
    private func answers(inMemory: Bool) async throws -> [[String]] {
        let settings = inMemory ? [:] : ["COMMONS_SEARCH_MEMORY_LISTINGS": "0"]
        let recorded = Recorded()
        let ids = (0..<30).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))! }
        let owner = UUID(uuidString: "10000000-0000-4000-8000-000000000001")!
        let leaver = UUID(uuidString: "10000000-0000-4000-8000-000000000002")!
        try await GeoSearchHarness(settings: settings).test { client in
            func search(after position: String) async throws {
                var round: [[String]] = []
                for query in ["", "&category=furniture", "&category=ELECTRONICS", "&status=promised", "&free=true", "&free=false&category=Books"] {
                    let items = try await client.items("/v1/nearby/listings?lat=52.37&lon=4.89&radius=5&limit=100\(query)", after: position)
                    round.append(items.compactMap { $0["id"] as? String })
                }
                await recorded.add(round)
            }
            var last = ""
            for (index, id) in ids.enumerated() {
                let point = Coordinate(lat: 52.37 + Double(index % 6) * 0.004, lon: 4.89 + Double(index / 6) * 0.006)
                last = try await client.post(
                    id, owner: index % 5 == 0 ? leaver : owner, category: index % 3 == 0 ? "Books" : "Furniture",
                    price: index % 4 == 0 ? Money(amountMinor: 500, currency: "EUR") : nil, at: point)
            }
            try await search(after: last)
            func listing(_ index: Int) -> String { "listing-\(ids[index].uuidString.lowercased())" }
            last = try await client.append(
                ListingEdited(
                    listingId: ids[1], title: "Reading lamp", description: "LED", category: "Electronics",
                    price: nil, publicLocation: Coordinate(lat: 52.36, lon: 4.88)), to: listing(1))
            try await search(after: last)
            last = try await client.append(ListingStatusChanged(listingId: ids[2], status: .promised), to: listing(2))
            last = try await client.append(ListingStatusChanged(listingId: ids[3], status: .given), to: listing(3))
            try await search(after: last)
            last = try await client.append(AccountDeleted(accountId: leaver, deletedAt: Date()), to: "account-\(leaver.uuidString.lowercased())")
            try await search(after: last)
        }
        return await recorded.rounds.flatMap { $0 }
    }

    @Test("from memory, every search answers what SQLite answers, change after change")
    func sameAsSQLite() async throws {
        let fromMemory = try await answers(inMemory: true)
        let fromSQLite = try await answers(inMemory: false)
        #expect(fromMemory == fromSQLite)
        // And the history did change the answers: the moved listing, the promise, the deletion.
        #expect(fromMemory.count == 24)
        #expect(fromMemory[2].isEmpty && fromMemory[8].count == 1, "Electronics appears with the edit")
        #expect(fromMemory[15].count == 1, "one promised listing")
        #expect(fromMemory[18].count < fromMemory[12].count, "the deleted account's listings are gone")
    }
}

extension ListingPlacesTests {
    @Test("after a replay swaps in a new file, searches from memory follow that file: what it holds, and what comes after")
    func followsASwap() async throws {
        try await GeoSearchHarness().test { client in
            let near = "/v1/nearby/listings?lat=52.37&lon=4.89&radius=5"
            let (first, second) = (UUID(), UUID())
            var last = try await client.post(first, at: Coordinate(lat: 52.371, lon: 4.891))
            #expect(try await client.items(near, after: last).ids == [first.key])
            let replay = ReadModelReplay(runtime: client.runtime)
            #expect(replay.start())
            for _ in 0..<600 where replay.status?.state == .running { try await Task.sleep(for: .milliseconds(50)) }
            #expect(replay.status?.state == .done)
            // The runner follows the swap; then a post and a promise land in the new file.
            last = try await client.post(second, at: Coordinate(lat: 52.372, lon: 4.892))
            #expect(try await client.items(near, after: last).ids == [first.key, second.key])
            last = try await client.append(ListingStatusChanged(listingId: first, status: .promised), to: "listing-\(first.uuidString.lowercased())")
            #expect(try await client.items(near, after: last).ids == [second.key])
            #expect(try await client.items(near + "&status=promised", after: last).ids == [first.key])
        }
    }
}

extension ListingPlacesTests {
    @Test(
        "a cap on the listings in memory that is not a whole number from 0 to 10,000,000 stops the service, naming the setting",
        arguments: ["-1", "lots", "10000001"])
    func badCap(value: String) throws {
        #expect {
            _ = try GeoSearchService.definition(environment: EnvironmentVariables(["COMMONS_SEARCH_MEMORY_LISTINGS": value]))
        } throws: { error in
            (error as? ConfigurationError)?.key == "COMMONS_SEARCH_MEMORY_LISTINGS"
        }
        _ = try GeoSearchService.definition(environment: EnvironmentVariables(["COMMONS_SEARCH_MEMORY_LISTINGS": "0"]))
    }
}

private actor Recorded {
    var rounds: [[[String]]] = []
    func add(_ round: [[String]]) { rounds.append(round) }
}

extension ListingPlacesTests {
    @Test("places that cannot be loaded leave searches to SQLite, and that file is not tried again; another file is")
    func unloadable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-places-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A read model without geo-search's tables: loading its places fails.
        let empty = try ReadModelDatabase(directory: directory, name: "empty", projections: [])
        let places = ListingPlaces(limit: 1_000)
        #expect(await places.places(of: empty) == nil)
        // Given the tables now, the same file is still not loaded: each search would otherwise
        // try the whole load again.
        let whole = try ReadModelDatabase(directory: directory, name: "whole", projections: GeoSearchService.projections)
        var migrator = DatabaseMigrator()
        GeoSearchProjection().registerMigrations(in: &migrator)
        try migrator.migrate(empty.pool)
        #expect(await places.places(of: empty) == nil)
        #expect(await places.places(of: whole) != nil, "a new file is loaded")
    }
}
