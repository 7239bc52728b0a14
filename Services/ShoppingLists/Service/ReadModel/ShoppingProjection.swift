import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// The whole read model of shopping-lists: the catalogue (products with an FTS5 index,
/// stores, current offers), reviews and favourites, and the lists with their members and
/// items. Texts people wrote stay sealed here; answers open them with the writer's key.
///
/// `AccountDeleted` removes what the account owned: its lists (with their items and
/// members), its memberships, reviews, favourites, and the items it wrote on others' lists.
struct ShoppingProjection: Projection {
    let name = "shopping-lists.main"
    let filter = EventFilter(categories: ["product", "store", "list", "review", "favorites", "account"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        ShoppingSchema.register(in: &migrator)
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        guard let decoded = try CommonsEvents.catalog.decode(event) else { return }
        if try CatalogRows.apply(decoded, in: db) { return }
        if try ListRows.apply(decoded, version: event.version, at: event.recordedAt, in: db) { return }
        switch decoded {
        case let reviewed as ProductReviewed:
            guard try !isDeleted(reviewed.authorId, in: db) else { return }
            try db.execute(
                sql: """
                    INSERT INTO shop_reviews (product_id, author_id, rating, text_sealed, at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (product_id, author_id) DO UPDATE SET rating = excluded.rating, text_sealed = excluded.text_sealed, at = excluded.at
                    """,
                arguments: [
                    reviewed.productId.lowercasedText, reviewed.authorId.lowercasedText, reviewed.rating, SealedColumn.encode(reviewed.text),
                    reviewed.at.timeIntervalSince1970,
                ])
        case let favorite as ProductFavoriteSet:
            if favorite.favorite {
                guard try !isDeleted(favorite.accountId, in: db) else { return }
                try db.execute(
                    sql: "INSERT OR IGNORE INTO shop_favorites (account_id, product_id, position) VALUES (?, ?, ?)",
                    arguments: [favorite.accountId.lowercasedText, favorite.productId.lowercasedText, event.position])
            } else {
                try db.execute(
                    sql: "DELETE FROM shop_favorites WHERE account_id = ? AND product_id = ?",
                    arguments: [favorite.accountId.lowercasedText, favorite.productId.lowercasedText])
            }
        case let registered as AccountRegistered:
            try db.execute(sql: "INSERT OR IGNORE INTO shop_accounts (account_id) VALUES (?)", arguments: [registered.accountId.lowercasedText])
        case let deleted as AccountDeleted:
            try forget(deleted.accountId, in: db)
        default:
            break
        }
    }

    private func isDeleted(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT deleted FROM shop_accounts WHERE account_id = ?", arguments: [account.lowercasedText]) ?? false
    }

    private func forget(_ account: UUID, in db: Database) throws {
        let key = account.lowercasedText
        try db.execute(
            sql: """
                INSERT INTO shop_accounts (account_id, deleted) VALUES (?, 1) ON CONFLICT (account_id) DO UPDATE SET deleted = 1
                """, arguments: [key])
        for list in try String.fetchAll(db, sql: "SELECT list_id FROM shop_lists WHERE owner_id = ?", arguments: [key]) {
            try ListRows.drop(list, in: db)
        }
        try db.execute(sql: "DELETE FROM shop_list_members WHERE account_id = ?", arguments: [key])
        try db.execute(sql: "DELETE FROM shop_list_items WHERE author_id = ?", arguments: [key])
        try db.execute(sql: "DELETE FROM shop_reviews WHERE author_id = ?", arguments: [key])
        try db.execute(sql: "DELETE FROM shop_favorites WHERE account_id = ?", arguments: [key])
    }
}
