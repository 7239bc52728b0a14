import Codecs
import CommonsAPI
import Contracts
import EventLog
import Foundation
import GRDB
import Geo
import GeoSearchDomain
import Hummingbird
import ReadModel
import ServiceKit

/// The routes of geo-search: nearby and area queries over listings and organisations.
///
/// Every query runs the same way: parse with the domain types (400 with every bad field),
/// ask the index for the domain's boxes (two across the antimeridian), apply the
/// filters in SQL, then decide exactly in Swift (`distanceMeters` within the radius, or
/// inside the area, edges included), sort by `PagePosition` and cut the page after the cursor.
/// Nearest-first listings without words are found in memory instead (``ListingPlaces``), the
/// same way over the same listings.
package struct GeoSearchAPI: Sendable {
    let readModel: ReadModelDatabase
    /// The most listings one query may read (see ``ScanBudget``).
    var scanLimit = GeoSearchService.defaultScanLimit
    /// The live read model's searchable listings in memory, for nearest-first pages.
    let places: ListingPlaces

    package init(
        readModel: ReadModelDatabase, scanLimit: Int = GeoSearchService.defaultScanLimit,
        places: ListingPlaces = ListingPlaces(limit: GeoSearchService.defaultMemoryListings)
    ) {
        self.readModel = readModel
        self.scanLimit = scanLimit
        self.places = places
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/nearby/listings") { request, _ in
            let (nearby, filters, paging) = try searchQuery(request, place: NearbyQuery.parse) { ListingFilters(&$0, defaultOrder: .distance) }
            return try await listings(in: .nearby(nearby), filters: filters, paging: paging, key: "nearby-listings|\(nearby.key)|\(filters.key)")
        }
        router.get("/v1/area/listings") { request, _ in
            let (area, filters, paging) = try searchQuery(request, place: AreaQuery.parse) { ListingFilters(&$0, defaultOrder: .recent) }
            return try await listings(in: .area(area), filters: filters, paging: paging, key: "area-listings|\(area.key)|\(filters.key)")
        }
        router.get("/v1/nearby/organizations") { request, _ in
            let (nearby, filters, paging) = try searchQuery(request, place: NearbyQuery.parse) { OrganizationFilters(&$0) }
            return try await organizations(
                in: .nearby(nearby), filters: filters, paging: paging, key: "nearby-organizations|\(nearby.key)|\(filters.key)")
        }
        router.get("/v1/area/organizations") { request, _ in
            let (area, filters, paging) = try searchQuery(request, place: AreaQuery.parse) { OrganizationFilters(&$0) }
            return try await organizations(in: .area(area), filters: filters, paging: paging, key: "area-organizations|\(area.key)|\(filters.key)")
        }
    }

    /// A search's place, filters and paging, read from the query in that order; a 400 naming
    /// every bad or missing field.
    private func searchQuery<Found, Filters>(
        _ request: Request, place: ([String: String]) throws(GeoSearchError) -> Found, filters: (inout QueryParameters) -> Filters
    ) throws -> (place: Found, filters: Filters, paging: Paging) {
        var fields = QueryParameters(request.queryFields)
        let found = parse(&fields, place)
        let filters = filters(&fields)
        let paging = Paging(&fields)
        guard fields.problems.isEmpty, let found else {
            throw Problem.malformed("The query has invalid or missing fields.", errors: fields.problems)
        }
        return (found, filters, paging)
    }

    private func parse<T>(_ fields: inout QueryParameters, _ body: ([String: String]) throws(GeoSearchError) -> T) -> T? {
        do { return try body(fields.raw) } catch { fields.merge(error); return nil }
    }

    // MARK: Listings

    func listings(in place: Place, filters: ListingFilters, paging: Paging, key: String) async throws -> Response {
        let after = try decodeCursor(paging.cursor, order: filters.order, key: key)
        if case .nearby(let query) = place, filters.order == .distance, !paging.count {
            return try page(
                try await nearest(query, filters: filters, needed: paging.limit + 1, after: after),
                paging: paging, after: after, key: key, inOrder: true)
        }
        let scanLimit = scanLimit
        let rows = try readModel.readInPlace { db in
            try Self.listingCandidates(place.boxes, filters: filters, in: db, budget: ScanBudget(limit: scanLimit))
        }
        var ranked: [(position: PagePosition, item: ListingResult)] = []
        for row in rows {
            guard let point = GeoCoordinate(lat: row.lat, lon: row.lon), place.contains(point) else { continue }
            let meters = place.origin.distanceMeters(to: point)
            let position: PagePosition = filters.order == .distance ? .distance(meters, id: row.id) : .recent(row.postedAt, id: row.id)
            ranked.append((position, ListingResult(row, point: point, distanceMeters: place.isNearby ? meters : nil)))
        }
        return try page(ranked, paging: paging, after: after, key: key)
    }

    /// The `needed` nearest matches after the cursor (fewer when the radius holds fewer), by
    /// a growing circle (`NearestSearch`) rather than by reading the whole radius. The circle
    /// grows over ids and points alone; only the rows of the page are read whole.
    package func nearest(
        _ query: NearbyQuery, filters: ListingFilters, needed: Int, after: PagePosition?
    )
        async throws -> [(position: PagePosition, item: FoundListing)]
    {
        let scanLimit = scanLimit
        // Places that are not kept (or cannot be loaded) are no reason to fail the search: SQLite answers it.
        if filters.keywords == nil, let kept = await places.places(of: readModel),
            let found = try kept.read({
                try Self.nearest(query, filters: filters, needed: needed, after: after, in: $0, budget: ScanBudget(limit: scanLimit))
            })
        {
            return found
        }
        return try readModel.readInPlace { db in
            let budget = ScanBudget(limit: scanLimit)
            let page =
                try NearestSearch.nearest(needed: needed, queryRadius: query.radiusMeters, after: after) { radius in
                    var ranked: [(position: PagePosition, match: (rowid: Int64, point: GeoCoordinate))] = []
                    var seen = Set<Int64>()
                    let boxes = LatLonBox.covering(center: query.center, radiusMeters: radius)
                    try Self.forEachCandidate(columns: "l.id, l.listing_id, l.lat, l.lon", in: boxes, filters: filters, db: db, budget: budget) {
                        columns in
                        let rowid = columns.int64(0)
                        guard seen.insert(rowid).inserted, let point = GeoCoordinate(lat: columns.double(2), lon: columns.double(3)) else { return }
                        let meters = query.center.distanceMeters(to: point)
                        guard meters <= radius, let id = columns.uuid(1) else { return }
                        let position = PagePosition.distance(meters, id: id)
                        guard after.map({ $0.precedes(position) }) ?? true else { return }
                        ranked.append((position, (rowid, point)))
                    }
                    return ranked
                } ?? []
            let rows = try Self.listingRows(page.map(\.match.rowid), in: db)
            return page.compactMap { entry in
                rows[entry.match.rowid].map {
                    (entry.position, .read(ListingResult($0, point: entry.match.point, distanceMeters: entry.position.value)))
                }
            }
        }
    }

    struct ListingRow: Sendable {
        var id: UUID
        var title: String
        var description: String
        var category: String
        var free: Bool
        var price: Contracts.Money?
        var status: String
        var lat: Double
        var lon: Double
        var postedAt: Date
        /// Where in the log the listing was posted.
        var posted: Checkpoint
        /// The first photo's.
        var imageId: UUID?
        /// Nil for a row from before geo-search kept them (until a replay).
        var pickupTimes: CommonsAPI.PickupTimes?
    }

    /// The columns of a whole listing row, as ``listingRow(_:)`` reads them.
    static let listingColumns = """
        l.listing_id, l.title, l.description, l.category, l.is_free, l.price_minor, l.price_currency, l.status,
        l.lat, l.lon, l.posted_at, l.posted_tx, l.posted_pos, l.image_id, l.pickup_note, l.pickup_windows
        """

    static func listingCandidates(_ boxes: [LatLonBox], filters: ListingFilters, in db: Database, budget: ScanBudget? = nil) throws -> [ListingRow] {
        var seen: [UUID: ListingRow] = [:]
        try forEachCandidate(columns: listingColumns, in: boxes, filters: filters, db: db, budget: budget) { columns in
            if let listing = listingRow(columns) { seen[listing.id] = listing }
        }
        return Array(seen.values)
    }

    /// The whole rows of listings `rowids`, by rowid.
    static func listingRows(_ rowids: [Int64], in db: Database) throws -> [Int64: ListingRow] {
        guard !rowids.isEmpty else { return [:] }
        let marks = String(repeating: "?, ", count: rowids.count - 1) + "?"
        var rows: [Int64: ListingRow] = [:]
        // Cached: pages are mostly full, so there are few shapes of this query.
        try db.cachedStatement(sql: "SELECT l.id, \(listingColumns) FROM geo_listings l WHERE l.id IN (\(marks))")
            .forEach(binding: { for rowid in rowids { $0.bind(rowid) } }) { columns in
                if let listing = listingRow(columns, from: 1) { rows[columns.int64(0)] = listing }
            }
        return rows
    }

    /// A listing read from `listingColumns`, starting at column `first`.
    static func listingRow(_ columns: borrowing SQLiteColumns, from first: Int32 = 0) -> ListingRow? {
        guard let id = columns.uuid(first) else { return nil }
        let minor = columns.optionalInt64(first + 5)
        let currency = columns.optionalText(first + 6)
        return ListingRow(
            id: id, title: columns.text(first + 1), description: columns.text(first + 2), category: columns.text(first + 3),
            free: columns.int64(first + 4) != 0,
            price: minor.flatMap { amount in currency.map { Contracts.Money(amountMinor: Int(amount), currency: $0) } },
            status: columns.text(first + 7), lat: columns.double(first + 8), lon: columns.double(first + 9),
            postedAt: Date(timeIntervalSince1970: columns.double(first + 10)),
            posted: Checkpoint(transaction: UInt64(bitPattern: columns.int64(first + 11)), position: columns.int64(first + 12)),
            imageId: columns.optionalText(first + 13).flatMap(UUID.init(uuidString:)),
            pickupTimes: columns.optionalText(first + 15).map {
                CommonsAPI.PickupTimes(note: columns.optionalText(first + 14), windows: PickupWindowsColumn.windows($0))
            })
    }

    /// Calls `body` with `columns` of each listing in `boxes` that passes `filters` (a listing
    /// in two boxes comes twice). The place index is walked in the band of each category asked
    /// for, over the ranges of the curve that cover each box (``HilbertOrder/ranges(covering:)``);
    /// what those ranges hold beyond the box is dropped in the index, before any row is read.
    static func forEachCandidate(
        columns: String, in boxes: [LatLonBox], filters: ListingFilters, db: Database, budget: ScanBudget? = nil,
        _ body: (borrowing SQLiteColumns) throws -> Void
    ) throws {
        var sql = """
            SELECT \(columns)
            FROM geo_listings l INDEXED BY geo_listings_by_place
            WHERE l.band = ? AND l.hilbert BETWEEN ? AND ? AND l.lat BETWEEN ? AND ? AND l.lon BETWEEN ? AND ?
            """
        // The bands to walk: the category's (any when none is asked for), in the status asked for.
        let codes: [Int64]
        if let category = filters.category {
            var code: Int64?
            try db.cachedStatement(sql: "SELECT code FROM geo_categories WHERE name = ?").forEach(binding: { $0.bind(category) }) {
                code = $0.int64(0)
            }
            guard let code else { return } // a category nothing was ever posted in
            codes = [code]
        } else {
            codes = try db.cachedStatement(sql: "SELECT code FROM geo_categories").map { $0.int64(0) }
        }
        let bands = codes.map { GeoSearchProjection.band(code: $0, status: filters.status) }
        if filters.free != nil { sql += " AND l.is_free = ?" }
        if filters.postedAfter != nil { sql += " AND (l.posted_tx, l.posted_pos) > (?, ?)" }
        if filters.keywords != nil { sql += " AND l.id IN (SELECT rowid FROM geo_listings_fts WHERE geo_listings_fts MATCH ?)" }
        let statement = try db.cachedStatement(sql: sql)
        // Bound straight to SQLite: this statement runs once for every range of every band.
        func bindFilters(_ parameters: inout SQLiteParameters) {
            if let free = filters.free { parameters.bind(free ? 1 : 0 as Int64) }
            if let after = filters.postedAfter {
                parameters.bind(Int64(bitPattern: after.transaction))
                parameters.bind(after.position)
            }
            if let keywords = filters.keywords { parameters.bind(keywords) }
        }
        for box in boxes {
            let ranges = HilbertOrder.ranges(covering: box)
            for band in bands {
                for range in ranges {
                    let bind = { (parameters: inout SQLiteParameters) in
                        parameters.bind(band)
                        parameters.bind(range.lowerBound)
                        parameters.bind(range.upperBound)
                        parameters.bind(box.south)
                        parameters.bind(box.north)
                        parameters.bind(box.west)
                        parameters.bind(box.east)
                        bindFilters(&parameters)
                    }
                    try statement.forEach(binding: bind) { columns in
                        try budget?.spend()
                        try body(columns)
                    }
                }
            }
        }
    }

    // MARK: Organisations

    func organizations(in place: Place, filters: OrganizationFilters, paging: Paging, key: String) async throws -> Response {
        let after = try decodeCursor(paging.cursor, order: .distance, key: key)
        let rows = try await readModel.pool.read { db in try Self.organizationCandidates(place.boxes, filters: filters, in: db) }
        var ranked: [(position: PagePosition, item: OrganizationHit)] = []
        for row in rows {
            guard let point = GeoCoordinate(lat: row.lat, lon: row.lon), place.contains(point) else { continue }
            let meters = place.origin.distanceMeters(to: point)
            ranked.append((.distance(meters, id: row.id), OrganizationHit(row, point: point, distanceMeters: place.isNearby ? meters : nil)))
        }
        return try page(ranked, paging: paging, after: after, key: key)
    }

    struct OrganizationRow: Sendable {
        var id: UUID
        var slug: String
        var name: String
        var kind: String
        var tags: [String]
        var acceptedCategories: [String]
        var address: String?
        var lat: Double
        var lon: Double
    }

    static func organizationCandidates(_ boxes: [LatLonBox], filters: OrganizationFilters, in db: Database) throws -> [OrganizationRow] {
        var sql = """
            SELECT o.organization_id, o.slug, o.name, o.kind, o.tags, o.accepted_categories, o.address, o.lat, o.lon
            FROM geo_organizations_rtree r CROSS JOIN geo_organizations o ON o.id = r.id
            WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ? AND o.lat IS NOT NULL
            """
        var extra: [(any DatabaseValueConvertible)?] = []
        if let kinds = filters.kinds {
            sql += " AND o.kind IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))"
            extra += kinds.map(\.rawValue)
        }
        if let tag = filters.tag {
            sql += " AND EXISTS (SELECT 1 FROM json_each(o.tags) WHERE lower(json_each.value) = lower(?))"
            extra.append(tag)
        }
        if let category = filters.acceptsCategory {
            sql += " AND EXISTS (SELECT 1 FROM json_each(o.accepted_categories) WHERE lower(json_each.value) = lower(?))"
            extra.append(category)
        }
        var seen: [UUID: OrganizationRow] = [:]
        let decoder = JSONDecoder()
        for box in boxes {
            let arguments = StatementArguments([box.south, box.north, box.west, box.east] as [(any DatabaseValueConvertible)?] + extra)
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                guard let id = UUID(text: row["organization_id"]) else { continue }
                let tags = (try? decoder.decode([String].self, from: Data((row["tags"] as String).utf8))) ?? []
                let accepted = (try? decoder.decode([String].self, from: Data((row["accepted_categories"] as String).utf8))) ?? []
                seen[id] = OrganizationRow(
                    id: id, slug: row["slug"], name: row["name"], kind: row["kind"], tags: tags,
                    acceptedCategories: accepted, address: row["address"], lat: row["lat"], lon: row["lon"])
            }
        }
        return Array(seen.values)
    }

    // MARK: Pages

    private func decodeCursor(_ cursor: String?, order: ResultOrder, key: String) throws -> PagePosition? {
        guard let cursor else { return nil }
        do { return try PageCursor.decode(cursor, order: order, queryKey: key) } catch { throw error.problem }
    }

    /// `{ "count": N }`, or the page after `after`: `{ "items": [...], "nextCursor": ... }`.
    /// `inOrder`: `ranked` is sorted already and holds nothing up to the cursor (as
    /// ``nearest(_:filters:needed:after:)`` gives it), so it is not sorted again.
    private func page<Item: Encodable & Sendable>(
        _ ranked: [(position: PagePosition, item: Item)], paging: Paging, after: PagePosition?, key: String, inOrder: Bool = false
    ) throws -> Response {
        if paging.count { return try Response.json(["count": ranked.count]) }
        let sorted =
            inOrder
            ? ranked
            : ranked
                .filter { entry in after.map { $0.precedes(entry.position) } ?? true }
                .sorted { $0.position.precedes($1.position) }
        let items = sorted.prefix(paging.limit)
        let next = sorted.count > paging.limit ? items.last.map { PageCursor.encode($0.position, queryKey: key) } : nil
        return try Response.json(ResultPage(items: items.map(\.item), nextCursor: next))
    }
}

/// How many listings one query may read before it is refused: a whole-world area, a
/// 20,000 km radius or a count over a whole country would otherwise read every listing for
/// one anonymous request. Nearest-first pages grow a circle only until the page is full, so
/// they meet the limit only when few listings match over a very large radius.
final class ScanBudget {
    let limit: Int
    private var spent = 0

    init(limit: Int) { self.limit = limit }

    /// Counts one listing read; 422 `query-too-broad` past the limit.
    func spend() throws {
        spent += 1
        guard spent > limit else { return }
        throw Problem(
            .unprocessableContent, type: "query-too-broad", title: "Query too broad",
            detail: "This search would read more than \(limit) listings: make the area or the radius smaller, or sort by distance.")
    }
}

/// Where a query looks: around a centre, or inside a map's box.
enum Place: Sendable {
    case nearby(NearbyQuery)
    case area(AreaQuery)

    var boxes: [LatLonBox] {
        switch self {
        case .nearby(let query): query.indexBoxes
        case .area(let query): query.boxes
        }
    }

    func contains(_ point: GeoCoordinate) -> Bool {
        switch self {
        case .nearby(let query): query.contains(point)
        case .area(let query): query.contains(point)
        }
    }

    /// What distances are measured from: the centre, or the middle of the map.
    var origin: GeoCoordinate {
        switch self {
        case .nearby(let query): query.center
        case .area(let query): query.middle
        }
    }

    var isNearby: Bool {
        if case .nearby = self { return true }
        return false
    }
}

struct ResultPage<Item: Encodable & Sendable>: Encodable, Sendable {
    var items: [Item]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey { case items, nextCursor }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor) // null on the last page
    }
}

extension ResultPage: JSONWritable where Item: JSONWritable {
    func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try object.objects("items", items)
        object.member("nextCursor", orNull: nextCursor)
    }
}

/// A listing as a result: public facts, the public point and directions to it.
package struct ListingResult: Encodable, Sendable {
    package var id: UUID
    var title: String
    var description: String
    var category: String
    var free: Bool
    var price: Contracts.Money?
    /// The first photo, where each size is served.
    var image: ImageLinks?
    var pickupTimes: CommonsAPI.PickupTimes?
    var status: String
    var lat: Double
    var lon: Double
    /// From the query's centre, for nearby queries.
    var distanceMeters: Double?
    var postedAt: Date
    /// ``GeoCoordinate/directionsLink``: the same JSON a `URL` would be, without parsing one.
    var directionsURL: String
    /// Its members but the distance, already written (``rendered()``): not a member itself.
    var writtenMembers: RenderedMembers?

    enum CodingKeys: String, CodingKey {
        case id, title, description, category, free, price, image, pickupTimes, status, lat, lon, distanceMeters, postedAt, directionsURL
    }

    init(_ row: GeoSearchAPI.ListingRow, point: GeoCoordinate, distanceMeters: Double?) {
        id = row.id
        title = row.title
        description = row.description
        category = row.category
        free = row.free
        price = row.price
        image = row.imageId.map(ImageLinks.init)
        pickupTimes = row.pickupTimes
        status = row.status
        lat = point.lat
        lon = point.lon
        self.distanceMeters = distanceMeters
        postedAt = row.postedAt
        directionsURL = point.directionsLink
    }
}

extension OrganizationHit {
    /// An organisation as a result, with directions to it.
    init(_ row: GeoSearchAPI.OrganizationRow, point: GeoCoordinate, distanceMeters: Double?) {
        self.init(
            id: row.id, slug: row.slug, name: row.name, kind: OrganizationKind(rawValue: row.kind), tags: row.tags,
            acceptedCategories: row.acceptedCategories.map(ListingCategory.init), address: row.address, lat: point.lat, lon: point.lon,
            distanceMeters: distanceMeters, directionsURL: point.directionsURL)
    }
}

extension Request {
    /// The query string as fields; the first value of a repeated field wins.
    var queryFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in uri.queryParameters where fields[String(name)] == nil { fields[String(name)] = String(value) }
        return fields
    }
}
