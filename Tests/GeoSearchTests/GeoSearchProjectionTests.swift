import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import GeoSearchDomain
import ReadModel
import Testing

@testable import GeoSearchService

/// The places projection from events, without HTTP: a rebuild from zero (rows first, the
/// place and text indexes built at the end) must give the same read model as following the
/// log event by event, and both must leave out what is no longer searchable.
@Suite("geo-search projection: bulk rebuild and event by event")
struct GeoSearchProjectionTests {
    let owner = UUID()
    let leaver = UUID()

    func event<E: EventContract>(_ event: E) throws -> NewEvent { try EventCatalog.encode(event) }

    func posted(_ id: UUID, owner: UUID, title: String, category: String, at point: Coordinate) throws -> NewEvent {
        try event(
            ListingPosted(
                listingId: id, ownerId: owner, title: title, description: "Collect any evening", category: category,
                price: nil, publicLocation: point, postedAt: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    /// What a query can see: each indexed listing with its point, category name and status,
    /// and the listings a keyword finds. Throws unless the text index holds exactly the words
    /// of the searchable rows (FTS5's integrity check against its content, the view).
    func searchable(_ path: String) throws -> (index: [String], lamps: [String], rows: Int) {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in try db.execute(sql: "INSERT INTO geo_listings_fts (geo_listings_fts, rank) VALUES ('integrity-check', 1)") }
        return try queue.read { db in
            let index = try String.fetchAll(
                db,
                sql: """
                    SELECT l.listing_id || printf(' %.3f %.3f ', l.lat, l.lon) || c.name || ' ' || l.status || ' ' || l.hilbert
                    FROM geo_listings l INDEXED BY geo_listings_by_place JOIN geo_categories c ON c.code * 2 + (l.status = 'promised') = l.band
                    WHERE l.band IS NOT NULL
                    ORDER BY l.listing_id
                    """)
            let lamps = try String.fetchAll(
                db,
                sql: """
                    SELECT l.listing_id FROM geo_listings_fts f JOIN geo_listings l ON l.id = f.rowid
                    WHERE geo_listings_fts MATCH 'lamp' ORDER BY l.listing_id
                    """)
            return (index, lamps, try Int.fetchOne(db, sql: "SELECT count(*) FROM geo_listings") ?? 0)
        }
    }

    @Test("a rebuild from zero equals following event by event; gone, given, sold, hidden, expired and deleted owners' listings are not searchable")
    func bulkEqualsIncremental() async throws {
        let log = try await Backend.sqlite.makeLog()
        let amsterdam = Coordinate(lat: 52.37, lon: 4.89)
        let ids = (0..<9).map { _ in UUID() }
        var events: [(String, NewEvent)] = []
        func listing(_ index: Int) -> String { "listing-\(ids[index].uuidString.lowercased())" }
        for (index, id) in ids.enumerated() {
            let point = Coordinate(lat: amsterdam.lat + Double(index) * 0.001, lon: amsterdam.lon)
            events.append(
                (
                    listing(index),
                    try posted(
                        id, owner: index == 8 ? leaver : owner, title: index.isMultiple(of: 2) ? "Desk lamp" : "Chair",
                        category: index < 4 ? "Furniture" : "Books", at: point)
                ))
        }
        // An edit moves listing 1 and makes it a lamp among Electronics (a category first seen here).
        events.append(
            (
                listing(1),
                try event(
                    ListingEdited(
                        listingId: ids[1], title: "Reading lamp", description: "LED", category: "Electronics",
                        price: Money(amountMinor: 500, currency: "EUR"), publicLocation: Coordinate(lat: 52.3, lon: 4.8)))
            ))
        for (index, status) in [(2, ListingStatus.given), (3, .sold), (4, .withdrawn), (5, .hidden), (6, .expired), (7, .promised)] {
            events.append((listing(index), try event(ListingStatusChanged(listingId: ids[index], status: status))))
        }
        // Listing 4, withdrawn, is edited: it stays out of both indexes, and its new words too.
        events.append(
            (
                listing(4),
                try event(
                    ListingEdited(
                        listingId: ids[4], title: "Lamp shade", description: "Withdrawn", category: "Books",
                        price: nil, publicLocation: amsterdam))
            ))
        // Listing 0 is given, then offered again: searchable once more.
        events.append((listing(0), try event(ListingStatusChanged(listingId: ids[0], status: .given))))
        events.append((listing(0), try event(ListingStatusChanged(listingId: ids[0], status: .available))))
        events.append(("account-\(leaver.uuidString.lowercased())", try event(AccountDeleted(accountId: leaver, deletedAt: Date()))))
        var first: Checkpoint?
        for (stream, event) in events {
            let checkpoint = try await log.store.append(to: stream, expected: .any, events: [event]).checkpoint
            first = first ?? checkpoint
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-geo-projection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bulk = directory.appendingPathComponent("bulk.sqlite").path
        let stepwise = directory.appendingPathComponent("stepwise.sqlite").path
        try await ReadModelRebuild.rebuild(projections: GeoSearchService.projections, from: log.store, into: bulk)
        // Only the first event is bulk loaded; a second rebuild into the same file goes on from
        // its checkpoints, event by event, as a running service does.
        try await ReadModelRebuild.rebuild(
            projections: GeoSearchService.projections, from: log.store, into: stepwise,
            until: .checkpoint(try #require(first)), pageSize: 1)
        try await ReadModelRebuild.rebuild(projections: GeoSearchService.projections, from: log.store, into: stepwise, pageSize: 1)

        let (index, lamps, rows) = try searchable(bulk)
        #expect(try searchable(stepwise) == (index, lamps, rows))
        let key = { (n: Int) in ids[n].uuidString.lowercased() }
        #expect(index.map { String($0.prefix(36)) } == [0, 1, 7].map(key).sorted())
        #expect(index.contains("\(key(1)) 52.300 4.800 Electronics available \(HilbertOrder.index(lat: 52.3, lon: 4.8))"))
        #expect(index.contains { $0.hasPrefix(key(7)) && $0.contains("Books promised") })
        #expect(lamps == [0, 1].map(key).sorted())
        #expect(rows == 8) // the deleted account's listing is gone; the others are kept, unsearchable
        await log.close()
    }

    @Test("a read model from before the place index is moved onto it: bands and curve places set, the R*Tree gone")
    func upgradesFromTheRTree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-geo-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("geo-search.sqlite").path
        let ids = (0..<3).map { _ in UUID().uuidString.lowercased() }
        do {
            let queue = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            GeoSearchProjection().registerMigrations(in: &migrator)
            try migrator.migrate(queue, upTo: "geo-search-places-v6")
            try queue.write { db in
                // As geo-search wrote them then: places of 0 (before v6), one entry per searchable row in the R*Tree.
                for (id, category, status, lat) in [
                    (ids[0], "Books", "available", 52.37), (ids[1], "Toys", "promised", 52.38),
                    (ids[2], "Books", "withdrawn", 52.39),
                ] {
                    try db.execute(
                        sql: """
                            INSERT INTO geo_listings (listing_id, owner_id, title, description, category, is_free, status, lat, lon, posted_at)
                            VALUES (?, ?, 'Lamp', 'Collect any evening', ?, 1, ?, ?, 4.89, 0)
                            """, arguments: [id, UUID().uuidString.lowercased(), category, status, lat])
                    try db.execute(sql: "INSERT OR IGNORE INTO geo_categories (name) VALUES (?)", arguments: [category])
                }
                try db.execute(sql: "INSERT INTO geo_listings_rtree SELECT id, lat, lat, lon, lon FROM geo_listings WHERE status != 'withdrawn'")
            }
            try queue.close()
        }
        try ReadModelDatabase.open(path: path, projections: GeoSearchService.projections).close()
        let (index, lamps, rows) = try searchable(path)
        #expect(rows == 3)
        #expect(lamps == [ids[0], ids[1]].sorted()) // the text index is filled from the searchable rows
        #expect(
            index
                == [
                    "\(ids[0]) 52.370 4.890 Books available \(HilbertOrder.index(lat: 52.37, lon: 4.89))",
                    "\(ids[1]) 52.380 4.890 Toys promised \(HilbertOrder.index(lat: 52.38, lon: 4.89))",
                ].sorted())
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try db.tableExists("geo_listings_rtree") } == false)
    }
}
