import Codecs
import Contracts
import EventLog
import Foundation
import GRDB
import GeoSearchDomain
import ReadModel
import ServiceKit

/// Listings and organisations where geo-search can find them.
///
/// Tables: `geo_listings` (every listing it has heard of, with its status), indexed by band
/// (category and status) and place along a Hilbert curve (`geo_listings_by_place`), with an
/// FTS5 index on title and description; `geo_organizations`, with an R*Tree on the point
/// (`geo_organizations_rtree`, one degenerate box per point). Only listings whose status is
/// searchable (`available`, `promised`) have a band and are in the text index:
/// a withdrawn, given, sold, hidden or expired listing leaves them, and comes back if it is
/// made available again. An `AccountDeleted` removes every listing of that owner for good.
///
/// Only the public approximate point of a listing (`ListingPosted.publicLocation`) is ever
/// stored: there is no exact location here to leak.
struct GeoSearchProjection: Projection {
    /// Its name, by which nearby and area searches wait for it alone.
    static let projectionName = "geo-search.places"
    let name = GeoSearchProjection.projectionName
    let filter = EventFilter(categories: ["listing", "organization", "account"])

    /// The statuses that stay in the index.
    static let searchableStatuses: Set<ListingStatus> = [.available, .promised]

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("geo-search-places-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE geo_listings (
                        id INTEGER PRIMARY KEY,
                        listing_id TEXT NOT NULL UNIQUE,
                        owner_id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        description TEXT NOT NULL,
                        category TEXT NOT NULL,
                        is_free INTEGER NOT NULL,
                        price_minor INTEGER,
                        price_currency TEXT,
                        status TEXT NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        posted_at REAL NOT NULL
                    );
                    CREATE INDEX geo_listings_by_owner ON geo_listings (owner_id);
                    CREATE VIRTUAL TABLE geo_listings_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                    CREATE VIRTUAL TABLE geo_listings_fts USING fts5(title, description, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE geo_deleted_owners (owner_id TEXT PRIMARY KEY);
                    CREATE TABLE geo_organizations (
                        id INTEGER PRIMARY KEY,
                        organization_id TEXT NOT NULL UNIQUE,
                        slug TEXT NOT NULL,
                        name TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        tags TEXT NOT NULL,
                        accepted_categories TEXT NOT NULL,
                        address TEXT,
                        lat REAL,
                        lon REAL
                    );
                    CREATE VIRTUAL TABLE geo_organizations_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                    """)
        }
        // Where in the log each listing was posted, so that alerts can ask for what is new
        // since a point that means the same on every replica.
        migrator.registerMigration("geo-search-places-v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE geo_listings ADD COLUMN posted_tx INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE geo_listings ADD COLUMN posted_pos INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX geo_listings_by_posting ON geo_listings (posted_tx, posted_pos);
                    """)
        }
        // The R*Tree carries each entry's category and status as auxiliary columns, so that a
        // filtered query rejects its neighbours of other categories without reading their rows.
        // (A third dimension for the category was tried: it wrecked the tree's spatial
        // clustering and made small-radius queries 10× slower.)
        migrator.registerMigration("geo-search-places-v3") { db in
            try db.execute(
                sql: """
                    CREATE TABLE geo_categories (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE);
                    INSERT OR IGNORE INTO geo_categories (name) SELECT category FROM geo_listings ORDER BY id;
                    DROP TABLE geo_listings_rtree;
                    CREATE VIRTUAL TABLE geo_listings_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon, +category, +status);
                    INSERT INTO geo_listings_rtree (id, min_lat, max_lat, min_lon, max_lon, category, status)
                        SELECT l.id, l.lat, l.lat, l.lon, l.lon, c.code, l.status FROM geo_listings l JOIN geo_categories c ON c.name = l.category
                        WHERE l.status IN ('available', 'promised') AND l.lat BETWEEN -90 AND 90 AND l.lon BETWEEN -180 AND 180;
                    """)
        }
        // Auxiliary columns are read from a side table for every entry the walk meets (about
        // 1 µs each), so a filtered query paid for its neighbours of other categories after
        // all. Each (category, status) pair now has a band of latitudes of its own (see
        // ``band(code:status:)``): a query walks only its band, and the tree stays clustered
        // in space within each band.
        migrator.registerMigration("geo-search-places-v4") { db in
            // (Filled here once; v7 replaced the R*Tree and fills its index from the rows.)
            try db.execute(
                sql: """
                    DROP TABLE geo_listings_rtree;
                    CREATE VIRTUAL TABLE geo_listings_rtree USING rtree(id, min_y, max_y, min_lon, max_lon);
                    """)
        }
        // Whether a bulk load is under way is asked for every listing; a row in a table of its
        // own answers that faster than looking for a table in the schema.
        migrator.registerMigration("geo-search-places-v5") { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS geo_bulk_load (started REAL NOT NULL)")
        }
        // Each listing's place along a Hilbert curve, the order in which a rebuild fills the
        // R*Tree. Rows from before this are 0 (filled in id order) until the next rebuild.
        migrator.registerMigration("geo-search-places-v6") { db in
            try db.execute(sql: "ALTER TABLE geo_listings ADD COLUMN hilbert INTEGER NOT NULL DEFAULT 0")
        }
        // The R*Tree gives way to a B-tree on each listing's band and place along a Hilbert
        // curve (``HilbertOrder``): filling the R*Tree was two thirds of a rebuild (13 µs a
        // listing), and a box is a few ranges of the curve. The index also holds the point and
        // the id, so that the growing circle of a nearest search reads no rows.
        migrator.registerMigration("geo-search-places-v7") { db in
            try db.execute(
                sql: """
                    DROP TABLE geo_listings_rtree;
                    ALTER TABLE geo_listings ADD COLUMN band INTEGER;
                    """)
            let points = try Row.fetchAll(db, sql: "SELECT id, lat, lon FROM geo_listings")
            for point in points {
                try db.execute(
                    sql: "UPDATE geo_listings SET hilbert = ? WHERE id = ?",
                    arguments: [HilbertOrder.index(lat: point["lat"], lon: point["lon"]), point["id"] as Int64])
            }
            try Self.fillBands(in: db)
            try db.execute(sql: Self.placeIndex)
        }
        // The text index reads its words from the rows instead of keeping its own copy of every
        // title and description (``searchableText``): a rebuild wrote each text twice, and the
        // index's copy was a second place a deleted account's words stayed in the file.
        migrator.registerMigration("geo-search-places-v8") { db in
            try db.execute(
                sql: """
                    DROP TABLE geo_listings_fts;
                    \(Self.searchableText)
                    INSERT INTO geo_listings_fts (rowid, title, description) SELECT id, title, description FROM geo_searchable_text ORDER BY id;
                    """)
        }
        // What a result shows besides its text, so that a feed needs no second request per
        // listing: the first photo and the pickup times (``PickupWindowsColumn``), from
        // `ListingDetailsSet`. Null in rows from before this until the next replay.
        migrator.registerMigration("geo-search-places-v9") { db in
            try db.execute(
                sql: """
                    ALTER TABLE geo_listings ADD COLUMN image_id TEXT;
                    ALTER TABLE geo_listings ADD COLUMN pickup_note TEXT;
                    ALTER TABLE geo_listings ADD COLUMN pickup_windows TEXT;
                    """)
        }
    }

    /// The keyword index over the searchable listings (those with a band) as an FTS5 table
    /// with external content: a view of those rows. It keeps no copy of the text, and no
    /// column sizes (nothing ranks by them: a keyword is a filter). FTS5 reads a row's words
    /// from the view to remove them, so a row leaves the index (``unindex(rowid:in:)``)
    /// before it loses its band or its text changes; removing one the view does not hold is
    /// a no-op.
    static let searchableText = """
        CREATE VIEW geo_searchable_text AS SELECT id, title, description FROM geo_listings WHERE band IS NOT NULL;
        CREATE VIRTUAL TABLE geo_listings_fts USING fts5(
            title, description, content = 'geo_searchable_text', content_rowid = 'id', columnsize = 0,
            tokenize = 'unicode61 remove_diacritics 2');
        """

    /// The band of the index that holds listings of category `code` in `status`; a listing
    /// that cannot be found (not searchable, or a point out of range) has none.
    static func band(code: Int64, status: ListingStatus) -> Int64 {
        code * 2 + (status == .promised ? 1 : 0)
    }

    /// Searchable listings by band, then place along the curve, with the point and the id.
    static let placeIndex = """
        CREATE INDEX IF NOT EXISTS geo_listings_by_place ON geo_listings (band, hilbert, lat, lon, listing_id) WHERE band IS NOT NULL
        """

    /// A rebuild from the start loads the listings' rows alone; ``endBulkLoad(in:)`` then sets
    /// their bands and builds the place index and the text index in one pass each, which is
    /// several times faster than keeping them up to date event by event.
    /// The secondary indexes of `geo_listings` are built at the end too, and a deleted
    /// account's listings are removed then (in one statement rather than one scan each).
    func beginBulkLoad(in db: Database) throws {
        try db.execute(sql: "INSERT INTO geo_bulk_load (started) VALUES (julianday('now'))")
        try db.execute(
            sql: """
                DROP INDEX IF EXISTS geo_listings_by_owner; DROP INDEX IF EXISTS geo_listings_by_posting; DROP INDEX IF EXISTS geo_listings_by_place
                """)
    }

    /// The keyword index keeps a deleted listing's words in its segments until they merge:
    /// merge them now, so a deleted account's titles leave the file.
    func forgetErased(in db: Database) throws {
        try db.execute(sql: "INSERT INTO geo_listings_fts(geo_listings_fts) VALUES('optimize')")
    }

    func endBulkLoad(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM geo_listings WHERE owner_id IN (SELECT owner_id FROM geo_deleted_owners);
                CREATE INDEX IF NOT EXISTS geo_listings_by_owner ON geo_listings (owner_id);
                CREATE INDEX IF NOT EXISTS geo_listings_by_posting ON geo_listings (posted_tx, posted_pos);
                INSERT INTO geo_listings_fts (geo_listings_fts) VALUES ('delete-all');
                """)
        try Self.fillBands(in: db)
        try db.execute(sql: Self.placeIndex)
        // In rowid order: FTS5 writes out what it holds whenever a rowid comes lower than the
        // last, and the view's own order (the place index's) made this fill six times slower.
        try db.execute(
            sql: """
                INSERT INTO geo_listings_fts (rowid, title, description) SELECT id, title, description FROM geo_searchable_text ORDER BY id;
                DELETE FROM geo_bulk_load;
                """)
    }

    /// Codes every category and gives every searchable listing without a band its band, in
    /// one pass: a bulk load posts listings with theirs, and an edit or a change of status
    /// during it takes the band away (`unindex`) for this to set again if it is still searchable.
    private static func fillBands(in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO geo_categories (name) SELECT category FROM geo_listings ORDER BY id;
                UPDATE geo_listings SET band = (SELECT code FROM geo_categories c WHERE c.name = geo_listings.category) * 2 + (status = 'promised')
                    WHERE band IS NULL AND status IN ('available', 'promised') AND lat BETWEEN -90 AND 90 AND lon BETWEEN -180 AND 180;
                """)
    }

    private func isBulkLoading(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM geo_bulk_load)")) ?? false
    }

    /// The index's code for a category name (any case), made on first sight.
    static func categoryCode(_ name: String, in db: Database) throws -> Int64 {
        if let code = try Int64.fetchOne(db.cachedStatement(sql: "SELECT code FROM geo_categories WHERE name = ?"), arguments: [name]) {
            return code
        }
        try db.execute(sql: "INSERT INTO geo_categories (name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }

    /// Decoding is the largest part of applying a listing's event; a rebuild does it ahead, on
    /// another thread. A listing's sealed text is opened here, with its owner's key.
    func sealedKeyOwners(of event: RecordedEvent) -> [UUID] { ListingTextOpening.keyOwners(of: event) }
    var keyTypes: Set<String> { ListingTextOpening.textTypes }

    func prepare(_ event: RecordedEvent, keys: (any KeyVault)?) async throws -> (any Sendable)? {
        let decoded = try await ListingTextOpening.decode(event, sealer: keys.map(PersonalDataSealer.init(vault:)))
        guard let posted = decoded as? ListingPosted else { return decoded }
        return PreparedPost(event: posted, checkpoint: event.checkpoint)
    }

    /// A posted listing's row, made ready to insert (ids as text, values bound) off the writer's thread.
    struct PreparedPost: Sendable {
        let owner: String
        let category: String
        /// The words the keyword index keeps (none where the text was erased with its owner's key).
        let title: String?
        let description: String?
        /// Whether the point is on the globe (the listings service never writes one that is not).
        let findable: Bool
        // From the values themselves: GRDB makes arguments from an array of `DatabaseValue`s
        // through a key path per value, which was a seventh of a rebuild's time.
        let arguments: StatementArguments

        init(event posted: ListingPosted, checkpoint: Checkpoint) {
            owner = posted.ownerId.lowercasedText
            category = posted.category
            title = posted.title
            description = posted.description
            let location = posted.publicLocation
            findable = (-90...90).contains(location.lat) && (-180...180).contains(location.lon)
            arguments = [
                posted.listingId.lowercasedText, owner, posted.title, posted.description, posted.category,
                posted.price == nil, posted.price?.amountMinor, posted.price?.currency,
                location.lat, location.lon, HilbertOrder.index(lat: location.lat, lon: location.lon),
                posted.postedAt.timeIntervalSince1970, Int64(bitPattern: checkpoint.transaction), checkpoint.position,
            ]
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        try apply(event, prepared: nil, in: db)
    }

    func apply(_ event: RecordedEvent, prepared: (any Sendable)?, in db: Database) throws {
        if let post = prepared as? PreparedPost { return try insert(post, in: db) }
        switch try (prepared as? any EventContract) ?? CommonsEvents.catalog.decode(event) {
        case let posted as ListingPosted:
            try insert(PreparedPost(event: posted, checkpoint: event.checkpoint), in: db)
        case let edited as ListingEdited:
            guard let rowid = try rowid(of: edited.listingId, in: db) else { return }
            try unindex(rowid: rowid, in: db)
            try db.execute(
                sql: """
                    UPDATE geo_listings SET title = ?, description = ?, category = ?, is_free = ?, price_minor = ?, price_currency = ?,
                                            lat = ?, lon = ?, hilbert = ?
                    WHERE id = ?
                    """,
                arguments: [
                    edited.title, edited.description, edited.category, edited.price == nil, edited.price?.amountMinor,
                    edited.price?.currency, edited.publicLocation.lat, edited.publicLocation.lon,
                    HilbertOrder.index(lat: edited.publicLocation.lat, lon: edited.publicLocation.lon), rowid,
                ])
            try index(rowid: rowid, in: db)
        case let details as ListingDetailsSet:
            // Appended with each post and edit, after it: the row is there unless its owner is gone.
            try db.cachedStatement(sql: "UPDATE geo_listings SET image_id = ?, pickup_note = ?, pickup_windows = ? WHERE listing_id = ?")
                .execute(arguments: [
                    details.imageIds.first?.lowercasedText, details.pickupTimes.note,
                    PickupWindowsColumn.text(details.pickupTimes.windows.map { ($0.startsAt, $0.endsAt) }), key(details.listingId),
                ])
        case let changed as ListingStatusChanged:
            guard let rowid = try rowid(of: changed.listingId, in: db) else { return }
            try unindex(rowid: rowid, in: db)
            try db.execute(sql: "UPDATE geo_listings SET status = ? WHERE id = ?", arguments: [changed.status.rawValue, rowid])
            try index(rowid: rowid, in: db)
        case let deleted as AccountDeleted:
            let owner = key(deleted.accountId)
            try db.execute(sql: "INSERT OR IGNORE INTO geo_deleted_owners (owner_id) VALUES (?)", arguments: [owner])
            guard try !isBulkLoading(db) else { return } // endBulkLoad removes them
            let rowids = try Int64.fetchAll(db, sql: "SELECT id FROM geo_listings WHERE owner_id = ?", arguments: [owner])
            for rowid in rowids { try unindex(rowid: rowid, in: db) }
            try db.execute(sql: "DELETE FROM geo_listings WHERE owner_id = ?", arguments: [owner])
        case let registered as OrganizationRegistered:
            try upsertOrganization(
                id: registered.organizationId, slug: registered.slug, name: registered.name, kind: registered.kind,
                tags: registered.tags, accepted: registered.acceptedCategories, location: registered.location,
                address: registered.address, in: db)
        case let updated as OrganizationUpdated:
            try upsertOrganization(
                id: updated.organizationId, slug: updated.slug, name: updated.name, kind: updated.kind,
                tags: updated.tags, accepted: updated.acceptedCategories, location: updated.location,
                address: updated.address, in: db)
        default:
            break
        }
    }

    private func key(_ id: UUID) -> String { id.lowercasedText }

    private func insert(_ post: PreparedPost, in db: Database) throws {
        // What the insert depends on, asked in one statement: a statement's binding, step and
        // reset cost a rebuild more than the lookups in it (three statements a post were one
        // in seven of its events' time).
        let (bulk, ownerDeleted, knownCode) = try db.cachedStatement(
            sql: """
                SELECT EXISTS (SELECT 1 FROM geo_bulk_load), EXISTS (SELECT 1 FROM geo_deleted_owners WHERE owner_id = ?),
                       (SELECT code FROM geo_categories WHERE name = ?)
                """
        ).map(arguments: [post.owner, post.category]) { ($0.int64(0) != 0, $0.int64(1) != 0, $0.optionalInt64(2)) }[0]
        // A listing appended after its owner's account was deleted is not shown either (a
        // bulk load removes every deleted owner's listings at its end).
        if !bulk, ownerDeleted { return }
        // The band goes in with the row: setting it for every row at the end of a bulk load
        // rewrote the whole table (and, for a million listings, sent it through the WAL).
        var arguments = post.arguments
        if post.findable {
            arguments += [Self.band(code: try knownCode ?? Self.categoryCode(post.category, in: db), status: .available)]
        } else {
            arguments += [nil]
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO geo_listings (listing_id, owner_id, title, description, category, is_free, price_minor, price_currency,
                                          status, lat, lon, hilbert, posted_at, posted_tx, posted_pos, band)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'available', ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (listing_id) DO NOTHING
                """
        ).execute(arguments: arguments)
        guard db.changesCount > 0, !bulk, post.findable else { return }
        // A new row is searchable as written (available, on the globe, its band in it): only
        // its words are left to index, without reading it back as an edit's `index` does.
        try db.cachedStatement(sql: "INSERT INTO geo_listings_fts (rowid, title, description) VALUES (?, ?, ?)")
            .execute(arguments: [db.lastInsertedRowID, post.title, post.description])
    }

    private func rowid(of listing: UUID, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM geo_listings WHERE listing_id = ?", arguments: [key(listing)])
    }

    /// Puts the listing into the place index (by giving it a band) and the text index if its
    /// status is searchable (unless a bulk load will do it at its end).
    private func index(rowid: Int64, in db: Database) throws {
        guard try !isBulkLoading(db) else { return }
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT title, description, category, status, lat, lon FROM geo_listings WHERE id = ?",
                arguments: [rowid]),
            let status = ListingStatus(rawValue: row["status"]), Self.searchableStatuses.contains(status)
        else { return }
        let (lat, lon): (Double, Double) = (row["lat"], row["lon"])
        // A point out of range (never written by the listings service) cannot be found, nor break a query.
        guard (-90...90).contains(lat), (-180...180).contains(lon) else { return }
        let band = Self.band(code: try Self.categoryCode(row["category"], in: db), status: status)
        try db.execute(sql: "UPDATE geo_listings SET band = ? WHERE id = ?", arguments: [band, rowid])
        try db.execute(
            sql: "INSERT INTO geo_listings_fts (rowid, title, description) VALUES (?, ?, ?)",
            arguments: [rowid, row["title"] as String, row["description"] as String])
    }

    /// Takes the listing out of the place index and the text index. Its words leave first,
    /// while the view still holds them; during a bulk load the text index is empty until its end.
    private func unindex(rowid: Int64, in db: Database) throws {
        if try !isBulkLoading(db) {
            try db.execute(sql: "DELETE FROM geo_listings_fts WHERE rowid = ?", arguments: [rowid])
        }
        try db.execute(sql: "UPDATE geo_listings SET band = NULL WHERE id = ?", arguments: [rowid])
    }

    private func upsertOrganization(
        id: UUID, slug: String, name: String, kind: OrganizationKind, tags: [String], accepted: [String],
        location: Coordinate?, address: String?, in db: Database
    ) throws {
        let tagsJSON = String(decoding: try JSONEncoder().encode(tags), as: UTF8.self)
        let acceptedJSON = String(decoding: try JSONEncoder().encode(accepted), as: UTF8.self)
        // A point out of range would poison every query; such an organisation is kept without one.
        let point = location.flatMap { (-90...90).contains($0.lat) && (-180...180).contains($0.lon) ? $0 : nil }
        try db.execute(
            sql: """
                INSERT INTO geo_organizations (organization_id, slug, name, kind, tags, accepted_categories, address, lat, lon)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (organization_id) DO UPDATE SET
                    slug = excluded.slug, name = excluded.name, kind = excluded.kind, tags = excluded.tags,
                    accepted_categories = excluded.accepted_categories, address = excluded.address, lat = excluded.lat, lon = excluded.lon
                """, arguments: [key(id), slug, name, kind.rawValue, tagsJSON, acceptedJSON, address, point?.lat, point?.lon])
        guard let rowid = try Int64.fetchOne(db, sql: "SELECT id FROM geo_organizations WHERE organization_id = ?", arguments: [key(id)])
        else { return }
        try db.execute(sql: "DELETE FROM geo_organizations_rtree WHERE id = ?", arguments: [rowid])
        if let point {
            try db.execute(
                sql: "INSERT INTO geo_organizations_rtree (id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)",
                arguments: [rowid, point.lat, point.lat, point.lon, point.lon])
        }
    }
}
