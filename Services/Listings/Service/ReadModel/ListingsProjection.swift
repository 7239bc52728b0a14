import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel
import ServiceKit

/// The listings read model: the public face of every listing, for the feed, keyword search
/// and the change feed; the requests and images that exist.
///
/// Tables: `listings` (one row per listing, `seq` its order of arrival), `listings_fts`
/// (FTS5 on title and description, rowid = `seq`), `listing_changes` (the change feed,
/// `seq` its order), `listing_requests`, `images` and `listings_deleted_accounts`.
///
/// Only public data is stored in clear: the approximate point, never the exact one; request
/// messages stay sealed with their author's key. An `AccountDeleted` removes that account's
/// listings (with a `removed` change), requests and images from every table.
struct ListingsProjection: Projection {
    let name = "listings.listings"
    let filter = EventFilter(categories: ["listing", "listingrequests", "image", "account", "conversation"])

    /// The keyword index keeps a deleted listing's words in its segments until they merge:
    /// merge them now, so a deleted account's titles leave the file.
    func forgetErased(in db: Database) throws {
        try db.execute(sql: "INSERT INTO listings_fts(listings_fts) VALUES('optimize')")
    }

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("listings-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE listings (
                        seq INTEGER PRIMARY KEY,
                        listing_id TEXT NOT NULL UNIQUE,
                        owner_id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        description TEXT NOT NULL,
                        category TEXT NOT NULL,
                        condition TEXT NOT NULL DEFAULT '',
                        price_minor INTEGER,
                        price_currency TEXT,
                        sort_price INTEGER NOT NULL,
                        status TEXT NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        image_ids TEXT NOT NULL DEFAULT '[]',
                        pickup_times TEXT NOT NULL DEFAULT '{"windows":[]}',
                        posted_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        expires_at REAL,
                        version INTEGER NOT NULL
                    );
                    CREATE INDEX listings_recent ON listings (posted_at DESC, seq DESC);
                    CREATE INDEX listings_price ON listings (sort_price, seq);
                    CREATE INDEX listings_title ON listings (title COLLATE NOCASE, seq);
                    CREATE INDEX listings_owner ON listings (owner_id);
                    CREATE INDEX listings_expiry ON listings (status, expires_at);
                    CREATE VIRTUAL TABLE listings_fts USING fts5(title, description, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE listing_changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        listing_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        status TEXT,
                        changed_at REAL NOT NULL
                    );
                    CREATE TABLE listing_requests (
                        request_id TEXT PRIMARY KEY,
                        listing_id TEXT NOT NULL,
                        requester_id TEXT NOT NULL,
                        message TEXT NOT NULL,
                        requested_at REAL NOT NULL
                    );
                    CREATE INDEX listing_requests_by_listing ON listing_requests (listing_id, requested_at);
                    CREATE TABLE images (
                        image_id TEXT PRIMARY KEY,
                        sha256 TEXT NOT NULL,
                        content_type TEXT NOT NULL,
                        byte_count INTEGER NOT NULL,
                        uploader_id TEXT NOT NULL
                    );
                    CREATE TABLE listings_deleted_accounts (account_id TEXT PRIMARY KEY);
                    """)
        }
        migrator.registerMigration("listings-conversations-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE conversations (
                        conversation_id TEXT PRIMARY KEY,
                        listing_id TEXT NOT NULL,
                        owner_id TEXT NOT NULL,
                        requester_id TEXT NOT NULL,
                        last_message_at REAL NOT NULL
                    );
                    CREATE INDEX conversations_by_owner ON conversations (owner_id, last_message_at);
                    CREATE INDEX conversations_by_requester ON conversations (requester_id, last_message_at);
                    CREATE TABLE conversation_messages (
                        seq INTEGER PRIMARY KEY,
                        message_id TEXT NOT NULL UNIQUE,
                        conversation_id TEXT NOT NULL,
                        sender_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        sent_at REAL NOT NULL
                    );
                    CREATE INDEX conversation_messages_by_conversation ON conversation_messages (conversation_id, seq);
                    CREATE TABLE conversation_reads (
                        conversation_id TEXT NOT NULL,
                        reader_id TEXT NOT NULL,
                        read_seq INTEGER NOT NULL,
                        PRIMARY KEY (conversation_id, reader_id)
                    );
                    """)
        }
        migrator.registerMigration("listings-image-sizes-v1") { db in
            try db.execute(
                sql: """
                    ALTER TABLE images ADD COLUMN small_sha256 TEXT;
                    ALTER TABLE images ADD COLUMN medium_sha256 TEXT;
                    """)
        }
        migrator.registerMigration("listings-feed-version-v1") { db in
            try FeedQueries.version.create(in: db)
        }
    }

    /// The event decoded, a listing's sealed text opened with its owner's key, before the page is written.
    func sealedKeyOwners(of event: RecordedEvent) -> [UUID] { ListingTextOpening.keyOwners(of: event) }
    var keyTypes: Set<String> { ListingTextOpening.textTypes }

    func prepare(_ event: RecordedEvent, keys: (any KeyVault)?) async throws -> (any Sendable)? {
        try await ListingTextOpening.decode(event, sealer: keys.map(PersonalDataSealer.init(vault:)))
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        try apply(event, prepared: nil, in: db)
    }

    func apply(_ event: RecordedEvent, prepared: (any Sendable)?, in db: Database) throws {
        let at = event.recordedAt.timeIntervalSince1970
        switch try (prepared as? any EventContract) ?? CommonsEvents.catalog.decode(event) {
        case let posted as ListingPosted:
            guard try !isDeleted(posted.ownerId, in: db) else { return }
            try db.executeCached(
                sql: """
                    INSERT INTO listings (listing_id, owner_id, title, description, category, price_minor, price_currency, sort_price,
                                          status, lat, lon, posted_at, updated_at, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'available', ?, ?, ?, ?, ?)
                    ON CONFLICT (listing_id) DO NOTHING
                    """,
                arguments: [
                    posted.listingId.lowercasedText, posted.ownerId.lowercasedText, posted.title, posted.description, posted.category,
                    posted.price?.amountMinor, posted.price?.currency, posted.price?.amountMinor ?? 0,
                    posted.publicLocation.lat, posted.publicLocation.lon, posted.postedAt.timeIntervalSince1970, at, event.version,
                ])
            guard db.changesCount > 0 else { return }
            try db.executeCached(
                sql: "INSERT INTO listings_fts (rowid, title, description) VALUES (?, ?, ?)",
                arguments: [db.lastInsertedRowID, posted.title, posted.description])
            try change(posted.listingId, "created", status: .available, at: at, in: db)
        case let edited as ListingEdited:
            guard let seq = try seq(of: edited.listingId, in: db) else { return }
            try db.executeCached(
                sql: """
                    UPDATE listings SET title = ?, description = ?, category = ?, price_minor = ?, price_currency = ?, sort_price = ?,
                                        lat = ?, lon = ?, updated_at = ?, version = ?
                    WHERE seq = ?
                    """,
                arguments: [
                    edited.title, edited.description, edited.category, edited.price?.amountMinor, edited.price?.currency,
                    edited.price?.amountMinor ?? 0, edited.publicLocation.lat, edited.publicLocation.lon, at, event.version, seq,
                ])
            try db.executeCached(sql: "DELETE FROM listings_fts WHERE rowid = ?", arguments: [seq])
            try db.executeCached(
                sql: "INSERT INTO listings_fts (rowid, title, description) VALUES (?, ?, ?)",
                arguments: [seq, edited.title, edited.description])
            try change(edited.listingId, "edited", status: nil, at: at, in: db)
        case let details as ListingDetailsSet:
            let images = String(decoding: try JSONEncoder().encode(details.imageIds), as: UTF8.self)
            let times = String(decoding: try EventJSON.encoder().encode(details.pickupTimes), as: UTF8.self)
            try update(details.listingId, "condition = ?, image_ids = ?, pickup_times = ?", [details.condition, images, times], event, in: db)
        case let expiry as ListingExpirySet:
            try update(expiry.listingId, "expires_at = ?", [expiry.expiresAt.timeIntervalSince1970], event, in: db)
        case let changed as ListingStatusChanged:
            guard try seq(of: changed.listingId, in: db) != nil else { return }
            try update(changed.listingId, "status = ?, updated_at = ?", [changed.status.rawValue, at], event, in: db)
            try change(changed.listingId, changed.status == .withdrawn ? "withdrawn" : "statusChanged", status: changed.status, at: at, in: db)
        case is ListingPickupPlaceSet, is ListingPromised:
            try update(event, in: db)
        case let requested as ListingRequested:
            guard try !isDeleted(requested.requesterId, in: db) else { return }
            let message = String(decoding: try JSONEncoder().encode(requested.message), as: UTF8.self)
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO listing_requests (request_id, listing_id, requester_id, message, requested_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    requested.requestId.lowercasedText, requested.listingId.lowercasedText, requested.requesterId.lowercasedText, message,
                    requested.requestedAt.timeIntervalSince1970,
                ])
            // The request opens (or continues) the conversation with the owner, as its message.
            guard
                let owner = try String.fetchOne(
                    db, sql: "SELECT owner_id FROM listings WHERE listing_id = ?", arguments: [requested.listingId.lowercasedText])
            else { return }
            let conversation = conversationId(listing: requested.listingId, requester: requested.requesterId)
            try db.executeCached(
                sql: """
                    INSERT INTO conversations (conversation_id, listing_id, owner_id, requester_id, last_message_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (conversation_id) DO UPDATE SET last_message_at = excluded.last_message_at
                    """,
                arguments: [
                    conversation.lowercasedText, requested.listingId.lowercasedText, owner, requested.requesterId.lowercasedText,
                    requested.requestedAt.timeIntervalSince1970,
                ])
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO conversation_messages (message_id, conversation_id, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    requested.requestId.lowercasedText, conversation.lowercasedText, requested.requesterId.lowercasedText, message,
                    requested.requestedAt.timeIntervalSince1970,
                ])
        case let sent as ConversationMessageSent:
            guard try !isDeleted(sent.senderId, in: db) else { return }
            let text = String(decoding: try JSONEncoder().encode(sent.text), as: UTF8.self)
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO conversation_messages (message_id, conversation_id, sender_id, text, sent_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    sent.messageId.lowercasedText, sent.conversationId.lowercasedText, sent.senderId.lowercasedText, text,
                    sent.sentAt.timeIntervalSince1970,
                ])
            try db.executeCached(
                sql: "UPDATE conversations SET last_message_at = ? WHERE conversation_id = ?",
                arguments: [sent.sentAt.timeIntervalSince1970, sent.conversationId.lowercasedText])
        case let read as ConversationRead:
            guard
                let seq = try Int64.fetchOne(
                    db, sql: "SELECT seq FROM conversation_messages WHERE message_id = ?", arguments: [read.upToMessageId.lowercasedText])
            else { return }
            try db.executeCached(
                sql: """
                    INSERT INTO conversation_reads (conversation_id, reader_id, read_seq) VALUES (?, ?, ?)
                    ON CONFLICT (conversation_id, reader_id) DO UPDATE SET read_seq = MAX(read_seq, excluded.read_seq)
                    """, arguments: [read.conversationId.lowercasedText, read.readerId.lowercasedText, seq])
        case let image as ImageStored:
            guard try !isDeleted(image.uploaderId, in: db) else { return }
            let sizes = Dictionary(image.sizes.map { ($0.size, $0.sha256) }, uniquingKeysWith: { first, _ in first })
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO images (image_id, sha256, content_type, byte_count, uploader_id, small_sha256, medium_sha256)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    image.imageId.lowercasedText, image.sha256, image.contentType, image.byteCount, image.uploaderId.lowercasedText,
                    sizes["small"], sizes["medium"],
                ])
        case let deleted as AccountDeleted:
            try forget(deleted.accountId, at: at, in: db)
        default:
            break
        }
    }

    /// Removes everything of a deleted account, and remembers it so that later events of it are dropped too.
    private func forget(_ account: UUID, at: Double, in db: Database) throws {
        try db.executeCached(sql: "INSERT OR IGNORE INTO listings_deleted_accounts (account_id) VALUES (?)", arguments: [account.lowercasedText])
        let rows = try Row.fetchAll(db, sql: "SELECT seq, listing_id FROM listings WHERE owner_id = ?", arguments: [account.lowercasedText])
        for row in rows {
            try db.executeCached(sql: "DELETE FROM listings_fts WHERE rowid = ?", arguments: [row["seq"] as Int64])
            try db.executeCached(
                sql: "INSERT INTO listing_changes (listing_id, kind, status, changed_at) VALUES (?, 'removed', NULL, ?)",
                arguments: [row["listing_id"] as String, at])
        }
        try db.executeCached(sql: "DELETE FROM listings WHERE owner_id = ?", arguments: [account.lowercasedText])
        try db.executeCached(sql: "DELETE FROM listing_requests WHERE requester_id = ?", arguments: [account.lowercasedText])
        // Conversations it took part in go for both sides: half a conversation is no use.
        try db.executeCached(
            sql: """
                DELETE FROM conversation_messages WHERE conversation_id IN
                    (SELECT conversation_id FROM conversations WHERE owner_id = ? OR requester_id = ?)
                """, arguments: [account.lowercasedText, account.lowercasedText])
        try db.executeCached(
            sql: "DELETE FROM conversations WHERE owner_id = ? OR requester_id = ?", arguments: [account.lowercasedText, account.lowercasedText])
        // Its uploads may be photos of its home: they stop being served.
        try db.executeCached(sql: "DELETE FROM images WHERE uploader_id = ?", arguments: [account.lowercasedText])
    }

    private func isDeleted(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM listings_deleted_accounts WHERE account_id = ?)"),
            arguments: [account.lowercasedText]) ?? false
    }

    private func seq(of listing: UUID, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM listings WHERE listing_id = ?"), arguments: [listing.lowercasedText])
    }

    /// Sets `assignments` and the version on the listing of the event's stream.
    private func update(
        _ listing: UUID, _ assignments: String, _ values: [(any DatabaseValueConvertible)?], _ event: RecordedEvent,
        in db: Database
    ) throws {
        try db.executeCached(
            sql: "UPDATE listings SET \(assignments), version = ? WHERE listing_id = ?",
            arguments: StatementArguments(values + [event.version, listing.lowercasedText]))
    }

    /// Only the version moves (an event with nothing public in it).
    private func update(_ event: RecordedEvent, in db: Database) throws {
        let listing = String(event.stream.dropFirst("listing-".count))
        try db.executeCached(sql: "UPDATE listings SET version = ? WHERE listing_id = ?", arguments: [event.version, listing])
    }

    private func change(_ listing: UUID, _ kind: String, status: ListingStatus?, at: Double, in db: Database) throws {
        try db.executeCached(
            sql: "INSERT INTO listing_changes (listing_id, kind, status, changed_at) VALUES (?, ?, ?, ?)",
            arguments: [listing.lowercasedText, kind, status?.rawValue, at])
    }
}
