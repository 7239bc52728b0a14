import Codecs
import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import GRDB
import ReadModel

/// A donation row, with its sealed message still sealed.
struct DonationRecord: Sendable {
    var id: UUID
    var accountId: UUID
    var organization: OrganizationRef
    var amountMinor: Int
    var currency: String
    var visibility: DonationVisibility
    var sealedMessage: String?
    var recurringId: UUID?
    var month: String?
    var estimateId: String?
    var donatedAt: Date
}

/// Reads donations, monthly donations, supporters and the feed from the read model.
package struct DonationQueries: Sendable {
    let pool: DatabasePool

    /// The version token of donation history pages: replaced with every write to the
    /// donations or to the organisations they name, whose slug and name a page shows.
    package static let historyVersion = VersionToken(table: "donations_history_version", watched: ["donations", "organizations"])

    /// A page of a person's history, as ``history(of:limit:after:list:kept:)`` found it.
    enum HistoryRead {
        /// The page kept under the history's current version token.
        case kept([UInt8])
        /// The page read afresh, and the token of the snapshot it was read in (nil before the migration).
        case read(records: [DonationRecord], next: String?, version: Int64?)
    }

    /// The columns ``record(_:)`` reads, in the order it reads them: by position, as looking
    /// each up by name costs more than decoding it (issue 17); then the rowid, the order the
    /// donations were applied in.
    private static let select = """
        SELECT d.donation_id, d.account_id, d.organization_id, o.slug, o.name, d.amount_minor, d.currency, d.visibility,
            d.message, d.recurring_id, d.month, d.estimate_id, d.donated_at, d.rowid
        FROM donations d JOIN organizations o ON o.organization_id = d.organization_id
        """

    /// `account`'s donations, newest first (in the log's order within a second, which is all
    /// the events keep), after `cursor`, whose sort key is `<time> <rowid>`. A cursor from
    /// before the rowid was in it (time alone) goes on from the start of its second.
    ///
    /// `kept` is asked first, with the history's version token in the read's own snapshot:
    /// the page it returns, if any, is the answer, and nothing else is read.
    func history(
        of account: UUID, limit: Int, after cursor: (sortKey: String, id: UUID)?, list: String,
        kept: @escaping @Sendable (Int64) -> [UInt8]? = { _ in nil }
    ) async throws -> HistoryRead {
        try await pool.read { db in
            let version = try Self.historyVersion.current(in: db)
            if let version, let page = kept(version) { return .kept(page) }
            var sql = Self.select + " WHERE d.account_id = ?"
            var arguments: [(any DatabaseValueConvertible)?] = [account.lowercasedText]
            if let cursor {
                let parts = cursor.sortKey.split(separator: " ", maxSplits: 1)
                if let time = parts.first.flatMap({ Double($0) }) {
                    sql += " AND (d.donated_at, d.rowid) < (?, ?)"
                    arguments += [time, parts.count == 2 ? Int64(parts[1]) ?? Int64.max : Int64.max]
                }
            }
            sql += " ORDER BY d.donated_at DESC, d.rowid DESC LIMIT ?"
            let rows = try db.cachedStatement(sql: sql).map(arguments: StatementArguments(arguments + [limit + 1])) { columns in
                Self.record(columns).map { ($0, columns.int64(13)) }
            }
            let page = rows.prefix(limit).compactMap { $0 }
            let next =
                rows.count > limit
                ? page.last.map { record, rowid in
                    ListCursor.encode(sortKey: "\(record.donatedAt.timeIntervalSince1970) \(rowid)", id: record.id, list: list)
                } : nil
            return .read(records: page.map(\.0), next: next, version: version)
        }
    }

    /// One donation of `account`; nil when it is not theirs or does not exist.
    func donation(_ id: UUID, of account: UUID) async throws -> DonationRecord? {
        try await pool.read { db in
            try db.cachedStatement(sql: Self.select + " WHERE d.donation_id = ? AND d.account_id = ?")
                .map(arguments: [id.lowercasedText, account.lowercasedText], Self.record).first ?? nil
        }
    }

    /// Every donation of `account` (for impact and totals).
    func all(of account: UUID) async throws -> [DonationRecord] {
        try await pool.read { db in
            try db.cachedStatement(sql: Self.select + " WHERE d.account_id = ? ORDER BY d.donated_at, d.rowid")
                .map(arguments: [account.lowercasedText], Self.record).compactMap { $0 }
        }
    }

    /// The categories of each organisation of `ids`.
    func categories(of ids: Set<UUID>) async throws -> [UUID: [String]] {
        try await pool.read { db in
            var result: [UUID: [String]] = [:]
            for id in ids {
                let text = try String.fetchOne(
                    db, sql: "SELECT categories FROM organizations WHERE organization_id = ?", arguments: [id.lowercasedText])
                result[id] = decode(text) ?? []
            }
            return result
        }
    }

    /// Every estimate of each organisation of `ids`, newest first.
    func estimates(of ids: Set<UUID>) async throws -> [UUID: [ImpactEstimate]] {
        try await pool.read { db in
            var result: [UUID: [ImpactEstimate]] = [:]
            for id in ids { result[id] = try OrganizationQueries.estimates(of: id.lowercasedText, in: db) }
            return result
        }
    }

    /// People who donated publicly to an organisation, most recent first.
    func supporters(of organization: UUID, limit: Int, after cursor: (sortKey: String, id: UUID)?, list: String) async throws -> Page<Supporter> {
        try await pool.read { db in
            var sql = """
                SELECT account_id, COUNT(*) AS donations, MAX(donated_at) AS last FROM donations
                WHERE organization_id = ? AND visibility = 'public' GROUP BY account_id
                """
            var arguments: [(any DatabaseValueConvertible)?] = [organization.lowercasedText]
            if let cursor, let time = Double(cursor.sortKey) {
                sql += " HAVING (MAX(donated_at), account_id) < (?, ?)"
                arguments += [time, cursor.id.lowercasedText]
            }
            sql += " ORDER BY last DESC, account_id DESC LIMIT ?"
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments + [limit + 1]))
            let items = rows.prefix(limit).compactMap { row -> Supporter? in
                guard let id = UUID(text: row["account_id"]) else { return nil }
                return Supporter(
                    accountId: id, profile: "/v1/users/\(id.lowercasedText)", donations: row["donations"],
                    lastDonatedAt: Date(timeIntervalSince1970: row["last"]))
            }
            let next =
                rows.count > limit
                ? items.last.map { ListCursor.encode(sortKey: String($0.lastDonatedAt.timeIntervalSince1970), id: $0.accountId, list: list) } : nil
            return Page(items: items, nextCursor: next)
        }
    }

    /// A row of the feed, caption still sealed.
    struct PostRecord: Sendable {
        var id: UUID
        var donationId: UUID
        var accountId: UUID
        var organization: OrganizationRef
        var sealedCaption: String
        var imageId: UUID?
        var sharedAt: Date
    }

    /// The public feed, newest first.
    func feed(limit: Int, after cursor: (sortKey: String, id: UUID)?, list: String) async throws -> (records: [PostRecord], next: String?) {
        try await pool.read { db in
            var sql = "SELECT p.*, o.slug, o.name FROM donation_posts p JOIN organizations o ON o.organization_id = p.organization_id"
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let cursor, let time = Double(cursor.sortKey) {
                sql += " WHERE (p.shared_at, p.post_id) < (?, ?)"
                arguments += [time, cursor.id.lowercasedText]
            }
            sql += " ORDER BY p.shared_at DESC, p.post_id DESC LIMIT ?"
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments + [limit + 1]))
            let records = rows.prefix(limit).compactMap { row -> PostRecord? in
                guard let id = UUID(text: row["post_id"]), let donation = UUID(text: row["donation_id"]),
                    let account = UUID(text: row["account_id"]), let organization = UUID(text: row["organization_id"])
                else { return nil }
                return PostRecord(
                    id: id, donationId: donation, accountId: account,
                    organization: OrganizationRef(id: organization, slug: row["slug"], name: row["name"]),
                    sealedCaption: row["caption"], imageId: (row["image_id"] as String?).flatMap(UUID.init(uuidString:)),
                    sharedAt: Date(timeIntervalSince1970: row["shared_at"]))
            }
            let next =
                rows.count > limit
                ? records.last.map { ListCursor.encode(sortKey: String($0.sharedAt.timeIntervalSince1970), id: $0.id, list: list) } : nil
            return (Array(records), next)
        }
    }

    /// `account`'s monthly donations.
    func recurring(of account: UUID) async throws -> [RecurringDonation] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM recurring_donations WHERE account_id = ? ORDER BY created_at", arguments: [account.lowercasedText]
            )
            .compactMap(Self.recurringView)
        }
    }

    /// Active monthly donations whose `month` has not been run: what the scheduler does next.
    func due(in month: Month) async throws -> [UUID] {
        try await pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT recurring_id FROM recurring_donations
                    WHERE status = 'active' AND start_month <= ? AND (last_run_month IS NULL OR last_run_month < ?)
                    """, arguments: [month.description, month.description]
            ).compactMap(UUID.init(uuidString:))
        }
    }

    static func recurringView(_ row: Row) -> RecurringDonation? {
        guard let id = UUID(text: row["recurring_id"]), let organization = UUID(text: row["organization_id"]) else { return nil }
        return RecurringDonation(
            id: id, organizationId: organization, amountMinor: row["amount_minor"], currency: CurrencyCode(rawValue: row["currency"]),
            visibility: DonationVisibility(rawValue: row["visibility"])?.rawValue ?? "anonymous", startMonth: row["start_month"],
            status: row["status"], lastRunMonth: row["last_run_month"], lastOutcome: row["last_outcome"])
    }

    private static func record(_ columns: borrowing SQLiteColumns) -> DonationRecord? {
        guard let id = columns.uuid(0), let account = columns.uuid(1), let organization = columns.uuid(2) else { return nil }
        return DonationRecord(
            id: id, accountId: account, organization: OrganizationRef(id: organization, slug: columns.text(3), name: columns.text(4)),
            amountMinor: Int(columns.int64(5)), currency: columns.text(6),
            visibility: DonationVisibility(rawValue: columns.text(7)) ?? .anonymous,
            sealedMessage: columns.optionalText(8), recurringId: columns.isNull(9) ? nil : columns.uuid(9), month: columns.optionalText(10),
            estimateId: columns.optionalText(11), donatedAt: Date(timeIntervalSince1970: columns.double(12)))
    }
}
