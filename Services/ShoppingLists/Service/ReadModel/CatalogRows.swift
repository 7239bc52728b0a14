import Contracts
import EventLog
import Foundation
import GRDB

/// The catalogue's rows: stores, products (kept in step with their FTS5 index) and the
/// current offers.
enum CatalogRows {
    /// Applies a catalogue event; false when `event` is not one.
    static func apply(_ event: any EventContract, in db: Database) throws -> Bool {
        switch event {
        case let store as StoreListed:
            try db.execute(
                sql: """
                    INSERT INTO shop_stores (store_id, retailer, name, address, lat, lon) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (store_id) DO UPDATE SET retailer = excluded.retailer, name = excluded.name, address = excluded.address,
                                                         lat = excluded.lat, lon = excluded.lon
                    """, arguments: [store.storeId.lowercasedText, store.retailer, store.name, store.address, store.location.lat, store.location.lon])
        case let listed as ProductListed:
            try upsert(listed.productId, listed.details, in: db)
            try db.execute(sql: "DELETE FROM shop_offers WHERE product_id = ?", arguments: [listed.productId.lowercasedText])
            for offer in listed.offers { try setOffer(listed.productId, offer.storeId, offer.price, in: db) }
        case let changed as ProductDetailsChanged:
            try upsert(changed.productId, changed.details, in: db)
        case let priced as ProductPriceChanged:
            try setOffer(priced.productId, priced.storeId, priced.price, in: db)
        case let withdrawn as ProductOfferWithdrawn:
            try db.execute(
                sql: "DELETE FROM shop_offers WHERE product_id = ? AND store_id = ?",
                arguments: [withdrawn.productId.lowercasedText, withdrawn.storeId.lowercasedText])
        default:
            return false
        }
        return true
    }

    private static func upsert(_ product: UUID, _ details: ProductDetails, in db: Database) throws {
        let row = try Int64.fetchOne(db, sql: "SELECT id FROM shop_products WHERE product_id = ?", arguments: [product.lowercasedText])
        if let row {
            try db.execute(sql: "DELETE FROM shop_products_fts WHERE rowid = ?", arguments: [row])
            try db.execute(
                sql: "UPDATE shop_products SET name = ?, brand = ?, category = ?, unit = ?, image = ?, calories = ? WHERE id = ?",
                arguments: [details.name, details.brand, details.category, details.unit, details.image, details.caloriesPerUnit, row])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO shop_products (product_id, name, brand, category, unit, image, calories) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    product.lowercasedText, details.name, details.brand, details.category, details.unit, details.image, details.caloriesPerUnit,
                ])
        }
        try db.execute(
            sql: "INSERT INTO shop_products_fts (rowid, name, brand, category) VALUES (?, ?, ?, ?)",
            arguments: [row ?? db.lastInsertedRowID, details.name, details.brand, details.category])
    }

    private static func setOffer(_ product: UUID, _ store: UUID, _ price: Money, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO shop_offers (product_id, store_id, amount_minor, currency) VALUES (?, ?, ?, ?)
                ON CONFLICT (product_id, store_id) DO UPDATE SET amount_minor = excluded.amount_minor, currency = excluded.currency
                """, arguments: [product.lowercasedText, store.lowercasedText, price.amountMinor, price.currency])
    }
}
