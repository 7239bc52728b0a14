import Codecs
import CommonsAPI
import Contracts
import Foundation
import GRDB
import ReadModel
import ServiceKit
import ShoppingListsDomain

/// Reads of the catalogue: search, products with their offers, related products, reviews
/// and favourites.
package enum ProductQueries {
    package static let summaryColumns = """
        p.id AS row, p.product_id, p.name, p.brand, p.category, p.unit, p.image, p.calories,
        (SELECT min(amount_minor) FROM shop_offers o WHERE o.product_id = p.product_id) AS cheapest_minor,
        (SELECT currency FROM shop_offers o WHERE o.product_id = p.product_id ORDER BY amount_minor LIMIT 1) AS cheapest_currency,
        (SELECT avg(rating) FROM shop_reviews r WHERE r.product_id = p.product_id) AS rating,
        (SELECT count(*) FROM shop_reviews r WHERE r.product_id = p.product_id) AS reviews
        """

    /// The catalogue's version token: replaced with every write to the tables a product's
    /// summary or a search reads (the FTS index changes only with `shop_products`), so two
    /// snapshots with the same token answer every search alike.
    package static let catalogVersion = VersionToken(table: "shop_catalog_version", watched: ["shop_products", "shop_offers", "shop_reviews"])

    /// Where each of ``summaryColumns`` is in a row that starts with them: rows are read by
    /// position, as looking a column up by name compares lowercased names (issue 17).
    private enum Column {
        static let row = 0, productId = 1, name = 2, brand = 3, category = 4, unit = 5, image = 6, calories = 7
        static let cheapestMinor = 8, cheapestCurrency = 9, rating = 10, reviews = 11
        /// The first column after the summary's: a search's score.
        static let score = 12
    }

    /// The summary in a row whose first columns are ``summaryColumns``.
    static func summary(_ row: Row) -> Product {
        let cheapest = (row[Column.cheapestMinor] as Int?).map {
            CommonsAPI.Money(amountMinor: $0, currency: CurrencyCode(rawValue: row[Column.cheapestCurrency] ?? ""))
        }
        let rating: Double? = row[Column.rating]
        return Product(
            id: UUID(text: row[Column.productId]) ?? UUID(), name: row[Column.name], brand: row[Column.brand], category: row[Column.category],
            unit: row[Column.unit], image: row[Column.image], caloriesPerUnit: row[Column.calories], cheapestPrice: cheapest,
            averageRating: rating.map { ($0 * 100).rounded() / 100 }, reviewCount: row[Column.reviews])
    }

    /// One page of a search: by FTS5 rank (best first) when there are words, else by name.
    package static func search(_ query: ProductQuery, in db: Database) throws -> (items: [Product], next: SearchCursor.Position?) {
        var arguments: [(any DatabaseValueConvertible)?] = []
        var conditions: [String] = []
        let sql: String
        if let words = query.words {
            arguments.append(try FullTextQuery(words: words).expression(prefix: true))
            var filter = ""
            if let category = query.category { filter = "AND p.category = ? COLLATE NOCASE"; arguments.append(category) }
            if let after = query.after {
                conditions.append("(score > ? OR (score = ? AND pid > ?))")
                arguments += [after.rank ?? 0, after.rank ?? 0, after.row]
            }
            // The page is chosen on ranks alone; only its rows get their summaries (prices,
            // ratings). Names weigh most, then brands, then categories.
            sql = """
                SELECT \(summaryColumns), page.score AS score FROM (
                    SELECT pid, score FROM (
                        SELECT p.id AS pid, bm25(shop_products_fts, 10.0, 4.0, 1.0) AS score
                        FROM shop_products_fts JOIN shop_products p ON p.id = shop_products_fts.rowid
                        WHERE shop_products_fts MATCH ? \(filter)
                    ) \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                    ORDER BY score, pid LIMIT ?
                ) page JOIN shop_products p ON p.id = page.pid
                ORDER BY page.score, p.id
                """
        } else {
            if let category = query.category { conditions.append("p.category = ? COLLATE NOCASE"); arguments.append(category) }
            if let after = query.after {
                conditions.append("(p.name > ? OR (p.name = ? AND p.id > ?))")
                arguments += [after.name ?? "", after.name ?? "", after.row]
            }
            sql = """
                SELECT \(summaryColumns) FROM shop_products p
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY p.name, p.id LIMIT ?
                """
        }
        arguments.append(query.limit + 1)
        // Cached: a search has few shapes of query, and compiling one costs more than running it.
        let rows = try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
        let page = rows.prefix(query.limit)
        let next =
            rows.count > query.limit
            ? page.last.map { row in
                SearchCursor.Position(
                    rank: query.words == nil ? nil : row[Column.score], name: query.words == nil ? row[Column.name] : nil,
                    row: row[Column.row])
            } : nil
        return (page.map(summary), next)
    }

    static func product(_ id: UUID, in db: Database) throws -> Product? {
        try Row.fetchOne(db, sql: "SELECT \(summaryColumns) FROM shop_products p WHERE p.product_id = ?", arguments: [id.lowercasedText]).map(summary)
    }

    /// The offers of a product with where each store is.
    static func offers(of id: UUID, in db: Database) throws -> [PlacedOfferRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT o.store_id, o.amount_minor, o.currency, s.retailer, s.name, s.address, s.lat, s.lon
                FROM shop_offers o JOIN shop_stores s ON s.store_id = o.store_id WHERE o.product_id = ?
                """, arguments: [id.lowercasedText]
        ).map { row in
            PlacedOfferRow(
                storeId: UUID(text: row["store_id"]) ?? UUID(), price: Contracts.Money(amountMinor: row["amount_minor"], currency: row["currency"]),
                lat: row["lat"], lon: row["lon"], retailer: row["retailer"], storeName: row["name"], address: row["address"])
        }
    }

    /// The products most often on the same live lists as `id`, excluding `id` itself.
    static func related(to id: UUID, limit: Int, in db: Database) throws -> [RelatedProduct] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(summaryColumns), shared FROM (
                    SELECT other.product_id AS related_id, count(DISTINCT other.list_id) AS shared
                    FROM shop_list_items mine JOIN shop_list_items other ON other.list_id = mine.list_id
                    WHERE mine.product_id = ? AND mine.removed = 0 AND other.removed = 0
                      AND other.product_id IS NOT NULL AND other.product_id != mine.product_id
                    GROUP BY other.product_id
                ) JOIN shop_products p ON p.product_id = related_id
                ORDER BY shared DESC, p.name, p.id LIMIT ?
                """, arguments: [id.lowercasedText, limit]
        ).map { RelatedProduct(product: summary($0), sharedLists: $0["shared"]) }
    }

    static func isFavorite(_ id: UUID, of account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM shop_favorites WHERE account_id = ? AND product_id = ?)",
            arguments: [account.lowercasedText, id.lowercasedText]) ?? false
    }

    /// A page of an account's favourites, most recently marked first: `limit` after `after`
    /// (the log position that marked the last one shown), and where the next page starts.
    static func favorites(
        of account: UUID, limit: Int, after: SearchCursor.Position?, in db: Database
    )
        throws -> (items: [Product], next: SearchCursor.Position?)
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(summaryColumns), f.position AS marked FROM shop_favorites f JOIN shop_products p ON p.product_id = f.product_id
                WHERE f.account_id = ? AND f.position < ? ORDER BY f.position DESC LIMIT ?
                """, arguments: [account.lowercasedText, after?.row ?? Int64.max, limit + 1])
        let next = rows.count > limit ? SearchCursor.Position(row: rows[limit - 1]["marked"]) : nil
        return (rows.prefix(limit).map(summary), next)
    }

    /// A page of a product's reviews, newest first (then by author), sealed texts as stored:
    /// `limit` after `after` (the time and author of the last one shown), and where the next page starts.
    static func reviews(
        of id: UUID, limit: Int, after: SearchCursor.Position?, in db: Database
    )
        throws -> (reviews: [(author: UUID, rating: Int, sealed: String, at: Date)], next: SearchCursor.Position?)
    {
        var condition = ""
        var arguments: [(any DatabaseValueConvertible)?] = [id.lowercasedText]
        if let after, let at = after.rank, let author = after.name {
            condition = "AND (at < ? OR (at = ? AND author_id > ?))"
            arguments += [at, at, author]
        }
        arguments.append(limit + 1)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT author_id, rating, text_sealed, at FROM shop_reviews WHERE product_id = ? \(condition) ORDER BY at DESC, author_id LIMIT ?
                """, arguments: StatementArguments(arguments))
        let next = rows.count > limit ? SearchCursor.Position(rank: rows[limit - 1]["at"], name: rows[limit - 1]["author_id"], row: 0) : nil
        let reviews = rows.prefix(limit).map {
            (UUID(text: $0["author_id"]) ?? UUID(), $0["rating"] as Int, $0["text_sealed"] as String, Date(timeIntervalSince1970: $0["at"]))
        }
        return (reviews, next)
    }

    /// Whether the account is registered and not deleted, as far as this read model knows.
    static func isLiveAccount(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT deleted = 0 FROM shop_accounts WHERE account_id = ?", arguments: [account.lowercasedText]) ?? false
    }

    static func isDeletedAccount(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT deleted FROM shop_accounts WHERE account_id = ?", arguments: [account.lowercasedText]) ?? false
    }
}

/// An offer row with its store.
struct PlacedOfferRow: Sendable {
    var storeId: UUID
    var price: Contracts.Money
    var lat: Double
    var lon: Double
    var retailer: String
    var storeName: String
    var address: String
}
