import CommonsAPI
import Contracts
import Foundation
import GRDB
import ShoppingListsDomain

/// A list as its members see it: texts still sealed (the route opens them).
struct StoredList: Sendable {
    var row: Int64
    var listId: UUID
    var ownerId: UUID
    var nameSealed: String
    var createdAt: Date
    var version: Int64
    var members: [UUID]
    var items: [StoredItem]
}

/// An item as stored, with what the catalogue says of its product.
struct StoredItem: Sendable {
    var itemId: UUID
    var authorId: UUID
    var productId: UUID?
    var textSealed: String?
    var noteSealed: String?
    var quantity: Int
    var checked: Bool
    var product: Product?
}

/// Reads of lists, always on behalf of a member: a list the caller is not a member of is
/// not found, the same as one that does not exist.
enum ListQueries {
    static func list(_ id: UUID, for account: UUID, in db: Database) throws -> StoredList? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT l.id, l.list_id, l.owner_id, l.name_sealed, l.created_at, l.version FROM shop_lists l
                    JOIN shop_list_members m ON m.list_id = l.list_id AND m.account_id = ?
                    WHERE l.list_id = ?
                    """, arguments: [account.lowercasedText, id.lowercasedText])
        else { return nil }
        return try stored(row, itemsIn: db)
    }

    /// The caller's lists, owned and shared, newest first, after `cursor`.
    static func lists(
        of account: UUID, limit: Int, after: SearchCursor.Position?, in db: Database
    ) throws -> (lists: [StoredList], next: SearchCursor.Position?) {
        var arguments: [(any DatabaseValueConvertible)?] = [account.lowercasedText]
        var condition = ""
        if let after {
            condition = "AND (l.created_at < ? OR (l.created_at = ? AND l.id < ?))"
            arguments += [after.rank ?? 0, after.rank ?? 0, after.row]
        }
        arguments.append(limit + 1)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT l.id, l.list_id, l.owner_id, l.name_sealed, l.created_at, l.version FROM shop_lists l
                JOIN shop_list_members m ON m.list_id = l.list_id AND m.account_id = ?
                WHERE 1 = 1 \(condition) ORDER BY l.created_at DESC, l.id DESC LIMIT ?
                """, arguments: StatementArguments(arguments))
        let page = try rows.prefix(limit).map { try stored($0, itemsIn: db) }
        let next = rows.count > limit ? page.last.map { SearchCursor.Position(rank: $0.createdAt.timeIntervalSince1970, row: $0.row) } : nil
        return (page, next)
    }

    private static func stored(_ row: Row, itemsIn db: Database) throws -> StoredList {
        let listId: String = row["list_id"]
        let members = try String.fetchAll(
            db, sql: "SELECT account_id FROM shop_list_members WHERE list_id = ? ORDER BY account_id",
            arguments: [listId]
        ).compactMap(UUID.init(uuidString:))
        let items = try Row.fetchAll(
            db,
            sql: """
                SELECT \(ProductQueries.summaryColumns),
                       i.item_id, i.author_id, i.product_id AS item_product, i.text_sealed, i.note_sealed, i.quantity, i.checked
                FROM shop_list_items i LEFT JOIN shop_products p ON p.product_id = i.product_id
                WHERE i.list_id = ? AND i.removed = 0 ORDER BY i.rank, i.item_id
                """, arguments: [listId]
        ).map { item in
            StoredItem(
                itemId: UUID(uuidString: item["item_id"]) ?? UUID(), authorId: UUID(uuidString: item["author_id"]) ?? UUID(),
                productId: (item["item_product"] as String?).flatMap(UUID.init(uuidString:)), textSealed: item["text_sealed"],
                noteSealed: item["note_sealed"], quantity: item["quantity"], checked: item["checked"],
                product: (item["product_id"] as String?) == nil ? nil : ProductQueries.summary(item))
        }
        return StoredList(
            row: row["id"], listId: UUID(uuidString: listId) ?? UUID(), ownerId: UUID(uuidString: row["owner_id"]) ?? UUID(),
            nameSealed: row["name_sealed"], createdAt: Date(timeIntervalSince1970: row["created_at"]), version: row["version"],
            members: members, items: items)
    }
}
