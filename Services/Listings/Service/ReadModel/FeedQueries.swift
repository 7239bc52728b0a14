import Contracts
import Foundation
import GRDB
import ListingsDomain
import ReadModel
import ServiceKit

/// The feed's SQL: filters, keyword search and keyset pages over the `listings` table.
package enum FeedQueries {
    /// The feed's version token: replaced with every write to `listings` (its FTS index
    /// changes only with it), so two snapshots with the same token hold the same feed.
    package static let version = VersionToken(table: "listings_feed_version", watched: ["listings"])

    /// When the next available listing expires after `now`: until then, time changes no page
    /// of the feed (a listing leaves `available` for `expired` only at its `expires_at`).
    package static func nextExpiry(after now: Date, in db: Database) throws -> Date? {
        try Double.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT min(expires_at) FROM listings WHERE status = 'available' AND expires_at > ?
                    """), arguments: [now.timeIntervalSince1970]
        ).map(Date.init(timeIntervalSince1970:))
    }

    /// One page of `query` for `caller` at `now`, and the cursor of the next page (nil at the end).
    package static func page(_ query: FeedQuery, caller: UUID?, now: Date, in db: Database) throws -> (rows: [FeedRow], next: FeedCursor?) {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let category = query.category {
            conditions.append("category = ?")
            arguments.append(category)
        }
        if query.freeOnly { conditions.append("price_minor IS NULL") }
        if let min = query.minPriceMinor {
            conditions.append("sort_price >= ?")
            arguments.append(min)
        }
        if let max = query.maxPriceMinor {
            conditions.append("sort_price <= ?")
            arguments.append(max)
        }
        if let currency = query.currency {
            conditions.append("(price_minor IS NULL OR price_currency = ?)")
            arguments.append(currency)
        }
        if query.mine {
            conditions.append("owner_id = ?")
            arguments.append(caller?.lowercasedText ?? "")
        }
        let nowSeconds = now.timeIntervalSince1970
        let statusConditions = query.statuses.map { status -> String in
            switch status {
            case .available:
                arguments.append(nowSeconds)
                return "(+status = 'available' AND (expires_at IS NULL OR expires_at > ?))"
            case .expired:
                arguments.append(nowSeconds)
                return "(+status = 'expired' OR (+status = 'available' AND expires_at <= ?))"
            default:
                arguments.append(status.rawValue)
                return "+status = ?"
            }
        }
        // `+status` keeps SQLite off the status index, so that it walks the index of the
        // sort order and stops after one page instead of sorting every available listing.
        // No status left (only an owner's statuses, asked by someone else) matches nothing.
        conditions.append(statusConditions.isEmpty ? "0" : "(" + statusConditions.joined(separator: " OR ") + ")")

        let source: String
        let keyExpression: String
        if let terms = query.terms {
            source = "listings JOIN listings_fts ON listings_fts.rowid = listings.seq"
            conditions.insert("listings_fts MATCH ?", at: 0)
            arguments.insert(try FullTextQuery(words: terms, maxTerms: ListingsAPI.maxSearchTerms).expression(prefix: false), at: 0)
            keyExpression = "bm25(listings_fts, 2.0, 1.0)"
        } else {
            source = "listings"
            keyExpression = "NULL"
        }
        let order = ordering(query.sort, query.order)
        var outer: [String] = []
        var outerArguments: [(any DatabaseValueConvertible)?] = []
        if let cursor = query.cursor {
            outer.append(order.after)
            let key: (any DatabaseValueConvertible)? =
                switch query.sort {
                case .recent, .relevance: Double(cursor.key)
                case .price: Int64(cursor.key)
                case .title: cursor.key
                }
            outerArguments += [key, key, cursor.sequence]
        }
        let sql = """
            SELECT * FROM (
                SELECT \(FeedRow.columns), \(keyExpression) AS score FROM \(source) WHERE \(conditions.joined(separator: " AND "))
            ) \(outer.isEmpty ? "" : "WHERE " + outer.joined(separator: " AND "))
            ORDER BY \(order.by) LIMIT ?
            """
        // Cached: a feed has few shapes of query, and compiling one costs more than running it.
        let rows = try db.cachedStatement(sql: sql).map(arguments: StatementArguments(arguments + outerArguments + [query.limit + 1]), FeedRow.init)
        let page = rows.prefix(query.limit)
        var next: FeedCursor?
        if rows.count > query.limit, let last = page.last {
            let key: String =
                switch query.sort {
                case .recent: "\(last.postedAtSeconds)"
                case .price: "\(last.sortPrice)"
                case .title: last.title
                case .relevance: "\(last.score)"
                }
            next = FeedCursor(key: key, sequence: last.seq, queryHash: query.fingerprint)
        }
        return (Array(page), next)
    }

    /// The ORDER BY of a sort in its direction, and the condition that keeps only rows after
    /// a cursor's (key, seq) in it; the condition takes the key twice, then the seq. The seq
    /// breaks ties the same way the key runs, so each direction is exactly the other reversed
    /// and SQLite walks the same index (forwards or backwards) for both.
    static func ordering(_ sort: FeedQuery.Sort, _ order: FeedQuery.Order) -> (by: String, after: String) {
        let column =
            switch sort {
            case .recent: "posted_at"
            case .price: "sort_price"
            case .title: "title"
            case .relevance: "score"
            }
        let collate = sort == .title ? " COLLATE NOCASE" : ""
        let (direction, beyond) = order == .asc ? ("ASC", ">") : ("DESC", "<")
        // bm25 ranks are smaller for better matches, so relevance "desc" (best first) runs the score up.
        let (sqlDirection, sqlBeyond) = sort == .relevance ? ("ASC", ">") : (direction, beyond)
        return (
            "\(column)\(collate) \(sqlDirection), seq \(sqlDirection)",
            "(\(column) \(sqlBeyond) ?\(collate) OR (\(column) = ?\(collate) AND seq \(sqlBeyond) ?))"
        )
    }
}
