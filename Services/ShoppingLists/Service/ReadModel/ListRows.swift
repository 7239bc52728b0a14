import Contracts
import EventLog
import Foundation
import GRDB

/// The lists' rows: each list with its version, its members (the owner among them) and
/// its items. A deleted list, or one whose owner's account was deleted, leaves no rows.
enum ListRows {
    /// Applies a list event; false when `event` is not one.
    static func apply(_ event: any EventContract, version: Int64, at time: Date, in db: Database) throws -> Bool {
        switch event {
        case let created as ShoppingListCreated:
            guard try !ownerIsDeleted(created.ownerId, in: db) else { return true }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO shop_lists (list_id, owner_id, name_sealed, created_at, version) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    created.listId.lowercasedText, created.ownerId.lowercasedText, SealedColumn.encode(created.name), time.timeIntervalSince1970,
                    version,
                ])
            try db.execute(
                sql: "INSERT OR IGNORE INTO shop_list_members (list_id, account_id) VALUES (?, ?)",
                arguments: [created.listId.lowercasedText, created.ownerId.lowercasedText])
            return true
        case let deleted as ShoppingListDeleted:
            try drop(deleted.listId.lowercasedText, in: db)
            return true
        default:
            break
        }
        guard let listId = Self.listId(of: event) else { return false }
        // Events of a list that is gone (deleted, or its owner's account) change nothing.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM shop_lists WHERE list_id = ?)", arguments: [listId.lowercasedText]) == true
        else {
            return true
        }
        try db.execute(sql: "UPDATE shop_lists SET version = ? WHERE list_id = ?", arguments: [version, listId.lowercasedText])
        switch event {
        case let renamed as ShoppingListRenamed:
            try db.execute(
                sql: "UPDATE shop_lists SET name_sealed = ? WHERE list_id = ?", arguments: [SealedColumn.encode(renamed.name), listId.lowercasedText])
        case let added as ShoppingListMemberAdded:
            guard try !ownerIsDeleted(added.accountId, in: db) else { break }
            try db.execute(
                sql: "INSERT OR IGNORE INTO shop_list_members (list_id, account_id) VALUES (?, ?)",
                arguments: [listId.lowercasedText, added.accountId.lowercasedText])
        case let removed as ShoppingListMemberRemoved:
            try db.execute(
                sql: "DELETE FROM shop_list_members WHERE list_id = ? AND account_id = ?",
                arguments: [listId.lowercasedText, removed.accountId.lowercasedText])
        case let added as ShoppingListItemAdded:
            guard try !ownerIsDeleted(added.authorId, in: db) else { break }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO shop_list_items (list_id, item_id, author_id, product_id, text_sealed, note_sealed, quantity, rank)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    listId.lowercasedText, added.itemId.lowercasedText, added.authorId.lowercasedText, added.productId?.lowercasedText,
                    SealedColumn.encode(added.text),
                    SealedColumn.encode(added.note), added.quantity, added.rank,
                ])
        case let changed as ShoppingListItemQuantityChanged:
            try update(listId, changed.itemId, "quantity = quantity + ?", [changed.delta], in: db)
        case let checked as ShoppingListItemCheckSet:
            try update(listId, checked.itemId, "checked = ?", [checked.checked], in: db)
        case let noted as ShoppingListItemNoteSet:
            try update(listId, noted.itemId, "note_sealed = ?", [SealedColumn.encode(noted.note)], in: db)
        case let moved as ShoppingListItemMoved:
            try update(listId, moved.itemId, "rank = ?", [moved.rank], in: db)
        case let removed as ShoppingListItemRemoved:
            try update(listId, removed.itemId, "removed = 1", [], in: db)
        default:
            break
        }
        return true
    }

    /// Removes a list and everything in it.
    static func drop(_ listId: String, in db: Database) throws {
        for table in ["shop_list_items", "shop_list_members", "shop_lists"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE list_id = ?", arguments: [listId])
        }
    }

    private static func update(
        _ listId: UUID, _ itemId: UUID, _ assignment: String, _ values: [(any DatabaseValueConvertible)?],
        in db: Database
    ) throws {
        try db.execute(
            sql: "UPDATE shop_list_items SET \(assignment) WHERE list_id = ? AND item_id = ?",
            arguments: StatementArguments(values + [listId.lowercasedText, itemId.lowercasedText]))
    }

    private static func ownerIsDeleted(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT deleted FROM shop_accounts WHERE account_id = ?", arguments: [account.lowercasedText]) ?? false
    }

    private static func listId(of event: any EventContract) -> UUID? {
        switch event {
        case let event as ShoppingListRenamed: event.listId
        case let event as ShoppingListMemberAdded: event.listId
        case let event as ShoppingListMemberRemoved: event.listId
        case let event as ShoppingListItemAdded: event.listId
        case let event as ShoppingListItemQuantityChanged: event.listId
        case let event as ShoppingListItemCheckSet: event.listId
        case let event as ShoppingListItemNoteSet: event.listId
        case let event as ShoppingListItemMoved: event.listId
        case let event as ShoppingListItemRemoved: event.listId
        default: nil
        }
    }
}
