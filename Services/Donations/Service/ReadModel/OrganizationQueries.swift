import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import GRDB
import Geo

/// How `GET /v1/organizations` narrows the list.
struct OrganizationFilter: Sendable {
    var category: String?
    var tag: String?
    var kind: Contracts.OrganizationKind?
    var verified: Bool?
    /// An FTS5 query made of the words of `q`, each quoted and as a prefix.
    var match: String?

    /// Every filter as text, for tying a cursor to them.
    var canonical: String {
        [category, tag, kind?.rawValue, verified.map { "\($0)" }, match].map { $0 ?? "" }.joined(separator: "|")
    }
}

/// Reads organisations from the read model.
struct OrganizationQueries: Sendable {
    let pool: DatabasePool

    /// A page ordered by name, after `cursor`; the next cursor is tied to `list`.
    func list(
        _ filter: OrganizationFilter, limit: Int, after cursor: (sortKey: String, id: UUID)?, list: String
    ) async throws -> Page<Organization> {
        try await pool.read { db in
            var conditions: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let category = filter.category {
                conditions.append("EXISTS (SELECT 1 FROM json_each(o.categories) WHERE value = ?)")
                arguments.append(category.lowercased())
            }
            if let tag = filter.tag {
                conditions.append("EXISTS (SELECT 1 FROM json_each(o.tags) WHERE value = ?)")
                arguments.append(tag.lowercased())
            }
            if let kind = filter.kind {
                // A charity that is also a centre is found under either.
                conditions.append(kind == .both ? "o.kind = 'both'" : "o.kind IN (?, 'both')")
                if kind != .both { arguments.append(kind.rawValue) }
            }
            if let verified = filter.verified {
                conditions.append("o.verified = ?")
                arguments.append(verified)
            }
            if let match = filter.match {
                conditions.append("o.id IN (SELECT rowid FROM organizations_fts WHERE organizations_fts MATCH ?)")
                arguments.append(match)
            }
            if let cursor {
                conditions.append("(o.name, o.organization_id) > (?, ?)")
                arguments += [cursor.sortKey, cursor.id.lowercasedText]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let rows = try Row.fetchAll(
                db, sql: "SELECT o.* FROM organizations o \(whereClause) ORDER BY o.name, o.organization_id LIMIT ?",
                arguments: StatementArguments(arguments + [limit + 1]))
            let views = try rows.prefix(limit).map { try Self.view($0, estimates: Self.estimates(of: $0["organization_id"], in: db), in: db) }
            let next = rows.count > limit ? views.last.map { ListCursor.encode(sortKey: $0.name, id: $0.id, list: list) } : nil
            return Page(items: views, nextCursor: next)
        }
    }

    /// The organisation with this id or slug, with its impact estimates.
    func one(_ idOrSlug: String) async throws -> Organization? {
        try await pool.read { db in
            let key = UUID(uuidString: idOrSlug)?.lowercasedText ?? idOrSlug.lowercased()
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM organizations WHERE organization_id = ? OR slug = ?", arguments: [key, key])
            else { return nil }
            return try Self.view(row, estimates: Self.estimates(of: row["organization_id"], in: db), in: db)
        }
    }

    /// A short reference to each organisation of `ids` that the read model knows.
    func refs(_ ids: Set<String>, in db: Database) throws -> [String: OrganizationRef] {
        var refs: [String: OrganizationRef] = [:]
        for id in ids {
            if let row = try Row.fetchOne(db, sql: "SELECT slug, name FROM organizations WHERE organization_id = ?", arguments: [id]),
                let uuid = UUID(uuidString: id)
            {
                refs[id] = OrganizationRef(id: uuid, slug: row["slug"], name: row["name"])
            }
        }
        return refs
    }

    /// Every estimate of an organisation, newest first.
    static func estimates(of organizationId: String, in db: Database) throws -> [ImpactEstimate] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM impact_estimates WHERE organization_id = ? ORDER BY added_at DESC, rowid DESC",
            arguments: [organizationId]
        ).compactMap { row in
            guard let id = UUID(uuidString: row["estimate_id"]) else { return nil }
            return ImpactEstimate(
                id: id, outcomeUnit: row["outcome_unit"], costPerOutcomeMinor: row["cost_per_outcome_minor"],
                currency: CurrencyCode(rawValue: row["currency"]),
                source: row["source"], sourceURL: row["source_url"], publishedOn: row["published_on"],
                addedAt: Date(timeIntervalSince1970: row["added_at"]))
        }
    }

    static func view(_ row: Row, estimates: [ImpactEstimate], in db: Database) throws -> Organization {
        let lat: Double? = row["lat"], lon: Double? = row["lon"]
        let point = lat.flatMap { lat in lon.flatMap { GeoCoordinate(lat: lat, lon: $0) } }
        return Organization(
            id: UUID(uuidString: row["organization_id"]) ?? UUID(), slug: row["slug"], name: row["name"],
            kind: row["kind"], mission: row["mission"], description: row["description"],
            homepage: row["homepage"], logoImageId: (row["logo_image_id"] as String?).flatMap(UUID.init(uuidString:)),
            categories: decode(row["categories"]) ?? [], tags: decode(row["tags"]) ?? [], rating: decode(row["rating"]),
            verified: row["verified"], currency: CurrencyCode(rawValue: row["currency"]), minimumDonationMinor: row["minimum_donation_minor"],
            suggestedAmountsMinor: decode(row["suggested_amounts"]) ?? [], address: row["address"],
            location: point.map { CommonsAPI.Coordinate(lat: $0.lat, lon: $0.lon) }, directionsURL: point?.directionsLink,
            openingHours: decode(row["opening_hours"]) ?? [], acceptedCategories: decode(row["accepted_categories"]) ?? [],
            impactEstimates: estimates, version: row["version"])
    }
}

/// Decodes a JSON column; nil when it is NULL or does not decode.
func decode<T: Decodable>(_ text: String?) -> T? {
    guard let text else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode(T.self, from: Data(text.utf8))
}
