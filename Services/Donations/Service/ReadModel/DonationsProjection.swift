import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// The donations read model: organisations (with an FTS5 index on name, mission,
/// description and tags), their impact estimates, donations, monthly donations and shared
/// posts.
///
/// Sealed texts (messages, captions) are stored sealed and opened only for their owner at
/// read time. An `AccountDeleted` removes the account's donations, monthly donations and
/// posts, and anything of that account read later is ignored.
struct DonationsProjection: Projection {
    let name = "donations.main"
    let filter = EventFilter(categories: ["organization", "wallet", "recurring", "recurringrun", "donationpost", "account"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("donations-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE organizations (
                        id INTEGER PRIMARY KEY,
                        organization_id TEXT NOT NULL UNIQUE,
                        slug TEXT NOT NULL,
                        name TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        tags TEXT NOT NULL DEFAULT '[]',
                        accepted_categories TEXT NOT NULL DEFAULT '[]',
                        address TEXT,
                        lat REAL,
                        lon REAL,
                        mission TEXT NOT NULL DEFAULT '',
                        description TEXT NOT NULL DEFAULT '',
                        homepage TEXT,
                        logo_image_id TEXT,
                        categories TEXT NOT NULL DEFAULT '[]',
                        rating TEXT,
                        currency TEXT NOT NULL DEFAULT 'USD',
                        minimum_donation_minor INTEGER NOT NULL DEFAULT 1,
                        suggested_amounts TEXT NOT NULL DEFAULT '[]',
                        opening_hours TEXT NOT NULL DEFAULT '[]',
                        verified INTEGER NOT NULL DEFAULT 0,
                        version INTEGER NOT NULL
                    );
                    CREATE INDEX organizations_by_name ON organizations (name, organization_id);
                    CREATE VIRTUAL TABLE organizations_fts USING fts5(name, mission, description, tags, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE impact_estimates (
                        estimate_id TEXT PRIMARY KEY,
                        organization_id TEXT NOT NULL,
                        outcome_unit TEXT NOT NULL,
                        cost_per_outcome_minor INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        source TEXT NOT NULL,
                        source_url TEXT,
                        published_on TEXT NOT NULL,
                        added_at REAL NOT NULL
                    );
                    CREATE INDEX impact_estimates_by_organization ON impact_estimates (organization_id, added_at);
                    CREATE TABLE donations (
                        donation_id TEXT PRIMARY KEY,
                        account_id TEXT NOT NULL,
                        organization_id TEXT NOT NULL,
                        amount_minor INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        visibility TEXT NOT NULL,
                        message TEXT,
                        recurring_id TEXT,
                        month TEXT,
                        estimate_id TEXT,
                        donated_at REAL NOT NULL
                    );
                    CREATE INDEX donations_by_account ON donations (account_id, donated_at, donation_id);
                    CREATE INDEX donations_by_organization ON donations (organization_id, visibility, account_id);
                    CREATE TABLE recurring_donations (
                        recurring_id TEXT PRIMARY KEY,
                        account_id TEXT NOT NULL,
                        organization_id TEXT NOT NULL,
                        amount_minor INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        visibility TEXT NOT NULL,
                        start_month TEXT NOT NULL,
                        status TEXT NOT NULL,
                        last_run_month TEXT,
                        last_outcome TEXT,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX recurring_by_account ON recurring_donations (account_id);
                    CREATE TABLE donation_posts (
                        post_id TEXT PRIMARY KEY,
                        donation_id TEXT NOT NULL,
                        account_id TEXT NOT NULL,
                        organization_id TEXT NOT NULL,
                        caption TEXT NOT NULL,
                        image_id TEXT,
                        shared_at REAL NOT NULL
                    );
                    CREATE INDEX donation_posts_by_time ON donation_posts (shared_at, post_id);
                    CREATE TABLE donations_deleted_accounts (account_id TEXT PRIMARY KEY);
                    """)
        }
        // A person's donations in the same second (the events keep whole seconds) come newest
        // first by the order they were applied, which is the log's: the rowid.
        migrator.registerMigration("donations-v2-log-order") { db in
            try db.execute(
                sql: """
                    DROP INDEX donations_by_account;
                    CREATE INDEX donations_by_account ON donations (account_id, donated_at);
                    """)
        }
        migrator.registerMigration("donations-history-version-v1") { db in
            try DonationQueries.historyVersion.create(in: db)
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        switch try CommonsEvents.catalog.decode(event) {
        case let registered as OrganizationRegistered:
            try db.execute(
                sql: """
                    INSERT INTO organizations (organization_id, slug, name, kind, tags, accepted_categories, address, lat, lon, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (organization_id) DO NOTHING
                    """,
                arguments: [
                    registered.organizationId.lowercasedText, registered.slug, registered.name, registered.kind.rawValue, try json(registered.tags),
                    try json(registered.acceptedCategories), registered.address, registered.location?.lat, registered.location?.lon, event.version,
                ])
            try reindex(registered.organizationId, in: db)
        case let updated as OrganizationUpdated:
            try db.execute(
                sql: """
                    UPDATE organizations SET name = ?, kind = ?, tags = ?, accepted_categories = ?, address = ?, lat = ?, lon = ?, version = ?
                    WHERE organization_id = ?
                    """,
                arguments: [
                    updated.name, updated.kind.rawValue, try json(updated.tags), try json(updated.acceptedCategories), updated.address,
                    updated.location?.lat, updated.location?.lon, event.version, updated.organizationId.lowercasedText,
                ])
            try reindex(updated.organizationId, in: db)
        case let profile as OrganizationProfileChanged:
            try db.execute(
                sql: """
                    UPDATE organizations SET mission = ?, description = ?, homepage = ?, logo_image_id = ?, categories = ?, rating = ?, currency = ?,
                                             minimum_donation_minor = ?, suggested_amounts = ?, opening_hours = ?, version = ?
                    WHERE organization_id = ?
                    """,
                arguments: [
                    profile.mission, profile.description, profile.homepage, profile.logoImageId?.lowercasedText, try json(profile.categories),
                    try profile.rating.map { try json($0) }, profile.currency, profile.minimumDonationMinor, try json(profile.suggestedAmountsMinor),
                    try json(profile.openingHours), event.version, profile.organizationId.lowercasedText,
                ])
            try reindex(profile.organizationId, in: db)
        case let verification as OrganizationVerificationChanged:
            try db.execute(
                sql: "UPDATE organizations SET verified = ?, version = ? WHERE organization_id = ?",
                arguments: [verification.verified, event.version, verification.organizationId.lowercasedText])
        case let estimate as ImpactEstimateAdded:
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO impact_estimates (estimate_id, organization_id, outcome_unit, cost_per_outcome_minor, currency, source, source_url,
                                                            published_on, added_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    estimate.estimateId.lowercasedText, estimate.organizationId.lowercasedText, estimate.outcomeUnit, estimate.costPerOutcomeMinor,
                    estimate.currency, estimate.source, estimate.sourceURL, estimate.publishedOn, estimate.addedAt.timeIntervalSince1970,
                ])
            try db.execute(
                sql: "UPDATE organizations SET version = ? WHERE organization_id = ?",
                arguments: [event.version, estimate.organizationId.lowercasedText])
        case let donation as DonationMade:
            guard try !isDeleted(donation.accountId, in: db) else { return }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO donations (donation_id, account_id, organization_id, amount_minor, currency, visibility, message, recurring_id,
                                                     month, estimate_id, donated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    donation.donationId.lowercasedText, donation.accountId.lowercasedText, donation.organizationId.lowercasedText,
                    donation.amountMinor, donation.currency,
                    donation.visibility.rawValue, try donation.message.map { try json($0) }, donation.recurringId?.lowercasedText, donation.month,
                    donation.estimateId?.lowercasedText, donation.at.timeIntervalSince1970,
                ])
        case let created as RecurringDonationCreated:
            guard try !isDeleted(created.accountId, in: db) else { return }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO recurring_donations (recurring_id, account_id, organization_id, amount_minor, currency, visibility, start_month,
                                                               status, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)
                    """,
                arguments: [
                    created.recurringId.lowercasedText, created.accountId.lowercasedText, created.organizationId.lowercasedText, created.amountMinor,
                    created.currency,
                    created.visibility.rawValue, created.startMonth, created.at.timeIntervalSince1970,
                ])
        case let changed as RecurringDonationAmountChanged:
            try db.execute(
                sql: "UPDATE recurring_donations SET amount_minor = ? WHERE recurring_id = ?",
                arguments: [changed.amountMinor, changed.recurringId.lowercasedText])
        case let cancelled as RecurringDonationCancelled:
            try db.execute(
                sql: "UPDATE recurring_donations SET status = 'cancelled' WHERE recurring_id = ?", arguments: [cancelled.recurringId.lowercasedText])
        case let run as RecurringDonationRun:
            try db.execute(
                sql: """
                    UPDATE recurring_donations SET last_run_month = ?, last_outcome = ?
                    WHERE recurring_id = ? AND (last_run_month IS NULL OR last_run_month < ?)
                    """, arguments: [run.month, run.outcome.rawValue, run.recurringId.lowercasedText, run.month])
        case let shared as DonationShared:
            guard try !isDeleted(shared.accountId, in: db) else { return }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO donation_posts (post_id, donation_id, account_id, organization_id, caption, image_id, shared_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    shared.postId.lowercasedText, shared.donationId.lowercasedText, shared.accountId.lowercasedText,
                    shared.organizationId.lowercasedText, try json(shared.caption),
                    shared.imageId?.lowercasedText, shared.at.timeIntervalSince1970,
                ])
        case let deleted as AccountDeleted:
            let account = deleted.accountId.lowercasedText
            try db.execute(sql: "INSERT OR IGNORE INTO donations_deleted_accounts (account_id) VALUES (?)", arguments: [account])
            for table in ["donations", "recurring_donations", "donation_posts"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE account_id = ?", arguments: [account])
            }
        default:
            break
        }
    }

    private func isDeleted(_ account: UUID, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM donations_deleted_accounts WHERE account_id = ?)", arguments: [account.lowercasedText]) ?? false
    }

    /// Replaces the organisation's entry in the text index.
    private func reindex(_ id: UUID, in db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT id, name, mission, description, tags FROM organizations WHERE organization_id = ?",
                arguments: [id.lowercasedText])
        else { return }
        let rowid: Int64 = row["id"]
        let tags = (try? JSONDecoder().decode([String].self, from: Data((row["tags"] as String).utf8))) ?? []
        try db.execute(sql: "DELETE FROM organizations_fts WHERE rowid = ?", arguments: [rowid])
        try db.execute(
            sql: "INSERT INTO organizations_fts (rowid, name, mission, description, tags) VALUES (?, ?, ?, ?, ?)",
            arguments: [rowid, row["name"] as String, row["mission"] as String, row["description"] as String, tags.joined(separator: " ")])
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
