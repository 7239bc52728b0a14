import GRDB
import ReadModel

/// The tables of the shopping-lists read model. Migrations never change once shipped.
enum ShoppingSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shopping-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE shop_stores (
                        store_id TEXT PRIMARY KEY,
                        retailer TEXT NOT NULL,
                        name TEXT NOT NULL,
                        address TEXT NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL
                    );
                    CREATE TABLE shop_products (
                        id INTEGER PRIMARY KEY,
                        product_id TEXT NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        brand TEXT NOT NULL,
                        category TEXT NOT NULL,
                        unit TEXT NOT NULL,
                        image TEXT,
                        calories INTEGER NOT NULL
                    );
                    CREATE INDEX shop_products_by_name ON shop_products (name, id);
                    CREATE INDEX shop_products_by_category ON shop_products (category COLLATE NOCASE, name, id);
                    CREATE VIRTUAL TABLE shop_products_fts USING fts5(name, brand, category, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE shop_offers (
                        product_id TEXT NOT NULL,
                        store_id TEXT NOT NULL,
                        amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
                        currency TEXT NOT NULL,
                        PRIMARY KEY (product_id, store_id)
                    );
                    CREATE TABLE shop_reviews (
                        product_id TEXT NOT NULL,
                        author_id TEXT NOT NULL,
                        rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                        text_sealed TEXT NOT NULL,
                        at REAL NOT NULL,
                        PRIMARY KEY (product_id, author_id)
                    );
                    CREATE INDEX shop_reviews_by_author ON shop_reviews (author_id);
                    CREATE TABLE shop_favorites (
                        account_id TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (account_id, product_id)
                    );
                    CREATE TABLE shop_accounts (
                        account_id TEXT PRIMARY KEY,
                        deleted INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE shop_lists (
                        id INTEGER PRIMARY KEY,
                        list_id TEXT NOT NULL UNIQUE,
                        owner_id TEXT NOT NULL,
                        name_sealed TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        version INTEGER NOT NULL
                    );
                    CREATE INDEX shop_lists_by_owner ON shop_lists (owner_id);
                    CREATE TABLE shop_list_members (
                        list_id TEXT NOT NULL,
                        account_id TEXT NOT NULL,
                        PRIMARY KEY (list_id, account_id)
                    );
                    CREATE INDEX shop_list_members_by_account ON shop_list_members (account_id);
                    CREATE TABLE shop_list_items (
                        list_id TEXT NOT NULL,
                        item_id TEXT NOT NULL,
                        author_id TEXT NOT NULL,
                        product_id TEXT,
                        text_sealed TEXT,
                        note_sealed TEXT,
                        quantity INTEGER NOT NULL,
                        checked INTEGER NOT NULL DEFAULT 0,
                        rank REAL NOT NULL,
                        removed INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (list_id, item_id)
                    );
                    CREATE INDEX shop_list_items_by_product ON shop_list_items (product_id, list_id);
                    """)
        }
        // A product's summary (its cheapest offer, its rating) is four lookups per row of a
        // page; with these each is one seek in an index that holds the answer, instead of a
        // walk over the product's offers and reviews that reads each row from the table.
        migrator.registerMigration("shopping-v2-summary-indexes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX shop_offers_by_price ON shop_offers (product_id, amount_minor, currency);
                    CREATE INDEX shop_reviews_by_rating ON shop_reviews (product_id, rating);
                    """)
        }
        // The catalogue's version token (`ProductQueries.catalogVersion`), replaced by
        // triggers with every write to a table a product summary or search reads.
        migrator.registerMigration("shopping-v3-catalog-version") { db in
            try ProductQueries.catalogVersion.create(in: db)
        }
        // Reviews and favourites are read in pages, each from where the last one ended.
        migrator.registerMigration("shopping-v4-paging-indexes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX shop_reviews_by_time ON shop_reviews (product_id, at DESC, author_id);
                    CREATE INDEX shop_favorites_by_position ON shop_favorites (account_id, position);
                    """)
        }
    }
}
