import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// Reports and comments, beside the listings.
///
/// Tables: `listing_reports` (open until resolved; the reason sealed with the reporter's
/// key, see `reason_form`) and `listing_comments` (text sealed with the author's key,
/// opened when read; rows of a deleted account are dropped).
struct ListingsModerationProjection: Projection {
    let name = "listings.moderation"
    let filter = EventFilter(categories: ["listingreports", "listingcomments", "account"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("listings-moderation-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE listing_reports (
                        report_id TEXT PRIMARY KEY,
                        listing_id TEXT NOT NULL,
                        reporter_id TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        reported_at REAL NOT NULL,
                        open INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE INDEX listing_reports_open ON listing_reports (open, listing_id);
                    CREATE TABLE listing_comments (
                        seq INTEGER PRIMARY KEY,
                        comment_id TEXT NOT NULL UNIQUE,
                        listing_id TEXT NOT NULL,
                        author_id TEXT NOT NULL,
                        text TEXT NOT NULL,
                        posted_at REAL NOT NULL
                    );
                    CREATE INDEX listing_comments_by_listing ON listing_comments (listing_id, seq);
                    CREATE TABLE moderation_deleted_accounts (account_id TEXT PRIMARY KEY);
                    """)
        }
        // What `reason` holds: `sealed` (a Sealed as JSON, reports of schema 2), `clear` (the
        // text, reports of schema 1) or `erased` (the reporter's account was deleted).
        migrator.registerMigration("listings-moderation-v2") { db in
            try db.execute(sql: "ALTER TABLE listing_reports ADD COLUMN reason_form TEXT NOT NULL DEFAULT 'clear'")
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        switch try CommonsEvents.catalog.decode(event) {
        case let reported as ListingReported:
            let (reason, form): (String, String) =
                if let sealed = reported.reason {
                    (String(decoding: try JSONEncoder().encode(sealed), as: UTF8.self), "sealed")
                } else {
                    (reported.clearReason ?? "", "clear")
                }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO listing_reports (report_id, listing_id, reporter_id, reason, reason_form, reported_at) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    reported.reportId.lowercasedText, reported.listingId.lowercasedText, reported.reporterId.lowercasedText, reason, form,
                    reported.reportedAt.timeIntervalSince1970,
                ])
        case let resolved as ListingReportsResolved:
            try db.execute(sql: "UPDATE listing_reports SET open = 0 WHERE listing_id = ?", arguments: [resolved.listingId.lowercasedText])
        case let posted as ListingCommentPosted:
            guard
                try
                    !(Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM moderation_deleted_accounts WHERE account_id = ?)",
                        arguments: [posted.authorId.lowercasedText]) ?? false)
            else { return }
            let text = String(decoding: try JSONEncoder().encode(posted.text), as: UTF8.self)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO listing_comments (comment_id, listing_id, author_id, text, posted_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    posted.commentId.lowercasedText, posted.listingId.lowercasedText, posted.authorId.lowercasedText, text,
                    posted.postedAt.timeIntervalSince1970,
                ])
        case let deleted as ListingCommentDeleted:
            try db.execute(sql: "DELETE FROM listing_comments WHERE comment_id = ?", arguments: [deleted.commentId.lowercasedText])
        case let deleted as AccountDeleted:
            try db.execute(
                sql: "INSERT OR IGNORE INTO moderation_deleted_accounts (account_id) VALUES (?)", arguments: [deleted.accountId.lowercasedText])
            try db.execute(sql: "DELETE FROM listing_comments WHERE author_id = ?", arguments: [deleted.accountId.lowercasedText])
            // The report still counts towards hiding the listing; what it said is gone.
            try db.execute(
                sql: "UPDATE listing_reports SET reason = '', reason_form = 'erased' WHERE reporter_id = ?",
                arguments: [deleted.accountId.lowercasedText])
        default:
            break
        }
    }
}
