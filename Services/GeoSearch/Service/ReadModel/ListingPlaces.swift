import EventLog
import Foundation
import GRDB
import Geo
import GeoSearchDomain
import Logging
import ReadModel
import Synchronization

/// The searchable listings of the live read model, kept in memory for nearby searches:
/// each one's band, point, filters and result, on a ``PlaceGrid``. A nearest-first page is
/// then found without reading SQLite; searches with words (full-text) still read it.
///
/// SQLite stays the one source: the places are loaded from the file in one write
/// transaction, which also starts a transaction observer on the file's writer; after every
/// commit that changed `geo_listings` or `geo_categories`, the observer reads the changed rows
/// back, before the projection's runner reports the new checkpoint. So a search that waited
/// for a position (`Commons-Min-Position`) finds what that position holds. A rebuilt file
/// swapped in is loaded afresh on the first search after the swap. Searches read the places
/// side by side; a commit changes them in place, alone (``ReadWriteLocked``).
///
/// Memory: about 600 bytes a listing, and twice its title and description (its fields, and its
/// JSON written once). Past `limit` searchable
/// listings (counted when a file is loaded, and after each commit), or with a limit of 0,
/// nothing is kept and every search reads SQLite. So it is when a file's places cannot be
/// loaded: that is logged once, and the file is not tried again (each search would have
/// read every listing under the writer's lock); a file swapped in, or a restart, tries anew.
package final class ListingPlaces: Sendable {
    /// A listing as a search finds it: a class, so that a search passes references around
    /// rather than copies of the result's texts.
    package final class Place: Sendable {
        package let free: Bool
        package let posted: Checkpoint
        package let result: ListingResult

        init(free: Bool, posted: Checkpoint, result: ListingResult) {
            self.free = free
            self.posted = posted
            self.result = result
        }
    }

    /// The places of one file, as of a commit.
    struct Snapshot: Sendable {
        var grid = PlaceGrid<Place>()
        /// Category codes by name folded as SQLite's `NOCASE` folds it (ASCII letters only).
        var categories: [String: Int64] = [:]

        func code(of category: String) -> Int64? { categories[ListingPlaces.folded(category)] }
    }

    /// The places of one file, read by searches side by side and changed in place by commits.
    typealias Kept = ReadWriteLocked<Snapshot>

    private struct State {
        /// The file the places were loaded from (kept, so that a new pool is never mistaken for it).
        var pool: DatabasePool?
        var kept: Kept?
        var observer: ChangeObserver?
    }

    let limit: Int
    private let logger: Logger
    private let state = Mutex(State())

    package init(limit: Int, logger: Logger = Logger(label: "commons.geo-search")) {
        self.limit = limit
        self.logger = logger
    }

    /// The places of `readModel`'s live file, loaded first if that file is new; nil when
    /// they are not kept (past the limit, turned off, or not loadable).
    func places(of readModel: ReadModelDatabase) async -> Kept? {
        guard limit > 0 else { return nil }
        let pool = readModel.pool
        // Loaded already (kept or not): no second look until another file is swapped in.
        if let known = state.withLock({ $0.pool === pool ? Optional($0.kept) : nil }) { return known }
        do {
            return try await load(pool)
        } catch {
            let first = state.withLock { state in
                guard state.pool !== pool else { return false }
                state = State(pool: pool)
                return true
            }
            if first {
                logger.warning("nearby searches read SQLite: the listings could not be kept in memory", metadata: ["error": "\(error)"])
            }
            return nil
        }
    }

    private func load(_ pool: DatabasePool) async throws -> Kept? {
        // On the writer, so that no commit falls between the read and the observer's start.
        try await pool.write { [self] db in
            if let known = state.withLock({ $0.pool === pool ? Optional($0.kept) : nil }) { return known }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM geo_listings WHERE band IS NOT NULL") ?? 0
            var kept: Kept?
            var observer: ChangeObserver?
            if count <= limit {
                var loaded = Snapshot()
                try Self.readCategories(db, into: &loaded.categories)
                try Self.read(db, rowids: nil) { loaded.grid.set($0, band: $1, at: $2, value: $3) }
                kept = Kept(loaded)
                observer = ChangeObserver(places: self, pool: pool)
                db.add(transactionObserver: observer!, extent: .observerLifetime)
            }
            state.withLock { $0 = State(pool: pool, kept: kept, observer: observer) }
            return kept
        }
    }

    /// Brings the places of `pool` up to date with a commit that changed `rowids` (all of
    /// them when nil) and, if `categories`, the category codes. Runs on the writer, after the
    /// commit: reads the rows, then changes the places in place, searches held off meanwhile.
    fileprivate func refresh(_ pool: DatabasePool, rowids: Set<Int64>?, categories: Bool, db: Database) {
        guard let kept = state.withLock({ $0.pool === pool ? $0.kept : nil }) else { return }
        do {
            var codes: [String: Int64]?
            if categories {
                codes = [:]
                try Self.readCategories(db, into: &codes!)
            }
            var rows: [(rowid: Int64, band: Int64, point: GeoCoordinate, place: Place)] = []
            if let rowids, rowids.count <= Self.rowsRereadAtMost {
                for chunk in Array(rowids).chunked(into: 500) { try Self.read(db, rowids: Array(chunk)) { rows.append(($0, $1, $2, $3)) } }
            } else {
                try Self.read(db, rowids: nil) { rows.append(($0, $1, $2, $3)) }
            }
            let count = kept.write { snapshot in
                if let codes { snapshot.categories = codes }
                if let rowids, rowids.count <= Self.rowsRereadAtMost {
                    for rowid in rowids { snapshot.grid.remove(rowid) }
                } else {
                    snapshot.grid = PlaceGrid()
                }
                for row in rows { snapshot.grid.set(row.rowid, band: row.band, at: row.point, value: row.place) }
                return snapshot.grid.count
            }
            if count > limit { forget(pool) }
        } catch {
            // Unreadable now: searches read SQLite until the next file is loaded.
            forget(pool)
        }
    }

    /// Keeps no places for `pool` any more (searches read SQLite), until another file is loaded.
    private func forget(_ pool: DatabasePool) {
        state.withLock { state in
            guard state.pool === pool else { return }
            state.kept = nil
            state.observer = nil
        }
    }

    /// Past this many rows changed in one commit (a bulk load's bands), everything is read again.
    static let rowsRereadAtMost = 20_000

    private static func readCategories(_ db: Database, into categories: inout [String: Int64]) throws {
        categories = [:]
        for row in try Row.fetchAll(db, sql: "SELECT code, name FROM geo_categories") {
            categories[folded(row[1])] = row[0]
        }
    }

    /// Calls `found` with each searchable listing among `rowids` (every one when nil): its
    /// row id, band, point and place.
    private static func read(_ db: Database, rowids: [Int64]?, _ found: (Int64, Int64, GeoCoordinate, Place) -> Void) throws {
        var sql = "SELECT l.id, l.band, \(GeoSearchAPI.listingColumns) FROM geo_listings l WHERE l.band IS NOT NULL"
        if let rowids { sql += " AND l.id IN (\(databaseQuestionMarks(count: rowids.count)))" }
        let statement = try db.makeStatement(sql: sql)
        try statement.forEach(binding: { parameters in for rowid in rowids ?? [] { parameters.bind(rowid) } }) { columns in
            guard let row = GeoSearchAPI.listingRow(columns, from: 2), let point = GeoCoordinate(lat: row.lat, lon: row.lon) else { return }
            found(
                columns.int64(0), columns.int64(1), point,
                Place(free: row.free, posted: row.posted, result: try ListingResult(row, point: point, distanceMeters: nil).rendered()))
        }
    }

    /// `text` with ASCII capitals made small, as SQLite's `NOCASE` compares.
    static func folded(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Hears which rows of the places' tables a transaction changed, and has them read again once it commits.
private final class ChangeObserver: TransactionObserver, @unchecked Sendable {
    // Touched on the file's writer only (GRDB calls an observer there), so unlocked.
    private weak var places: ListingPlaces?
    private weak var pool: DatabasePool?
    private var changed: Set<Int64> = []
    private var everything = false
    private var categories = false

    init(places: ListingPlaces, pool: DatabasePool) {
        self.places = places
        self.pool = pool
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "geo_listings" || eventKind.tableName == "geo_categories"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if event.tableName == "geo_categories" {
            categories = true
        } else if !everything {
            changed.insert(event.rowID)
            if changed.count > ListingPlaces.rowsRereadAtMost {
                everything = true
                changed = []
            }
        }
    }

    func databaseDidCommit(_ db: Database) {
        defer { reset() }
        guard let places, let pool, everything || !changed.isEmpty || categories else { return }
        places.refresh(pool, rowids: everything ? nil : changed, categories: categories, db: db)
    }

    func databaseDidRollback(_ db: Database) { reset() }

    private func reset() {
        changed = []
        everything = false
        categories = false
    }
}

private extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
