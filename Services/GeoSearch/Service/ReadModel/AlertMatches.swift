import Contracts
import EventLog
import Foundation
import GRDB
import Geo
import GeoSearchDomain
import ReadModel
import ServiceKit
import Synchronization

/// A live alert as the read model holds it: criteria still sealed.
struct StoredAlert: Sendable {
    var id: UUID
    var sealed: Sealed
    /// Where in the log the alert was made: it matches only listings posted after this.
    var created: Checkpoint
    var createdAt: Date
}

/// A new listing that one or more of someone's alerts cover.
struct AlertMatchResult: Encodable, Sendable {
    /// The checkpoint at which the listing was posted: the match's id, what `Last-Event-ID`
    /// and the read marker hold.
    var id: String
    /// The alerts that cover it.
    var alertIds: [UUID]
    /// The listing, measured from the first covering alert's centre, on its public point.
    var listing: ListingResult
}

/// Finds alert matches: the owner's alerts, opened with their personal-data key, each asked of
/// the listings index as a nearby query restricted to what was posted since.
final class AlertMatcher: Sendable {
    let readModel: ReadModelDatabase
    let sealer: PersonalDataSealer
    /// Opened criteria by alert id. Alerts never change, so an entry stays right while the alert lives.
    private let opened = Mutex<[UUID: AlertCriteria]>([:])

    init(readModel: ReadModelDatabase, sealer: PersonalDataSealer) {
        self.readModel = readModel
        self.sealer = sealer
    }

    /// The owner's live alerts, oldest first.
    func alerts(of owner: UUID) async throws -> [StoredAlert] {
        try await readModel.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT alert_id, criteria, created_tx, created_pos, created_at FROM geo_alerts
                    WHERE owner_id = ? ORDER BY created_tx, created_pos
                    """, arguments: [owner.lowercasedText]
            ).compactMap { row in
                guard let id = UUID(uuidString: row["alert_id"]),
                    let sealed = try? JSONDecoder().decode(Sealed.self, from: Data((row["criteria"] as String).utf8))
                else { return nil }
                return StoredAlert(
                    id: id, sealed: sealed, created: Self.checkpoint(row, "created"),
                    createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }

    /// The alert's criteria; nil once its owner's key is gone.
    func criteria(of alert: StoredAlert) async throws -> AlertCriteria? {
        if let known = opened.withLock({ $0[alert.id] }) { return known }
        guard let criteria = try await sealer.open(alert.sealed, as: AlertCriteria.self) else { return nil }
        opened.withLock { $0[alert.id] = criteria }
        return criteria
    }

    /// The checkpoint of the last match the owner read, if any.
    func readMarker(of owner: UUID) async throws -> Checkpoint? {
        try await readModel.pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT read_tx, read_pos FROM geo_alert_reads WHERE owner_id = ?",
                arguments: [owner.lowercasedText]
            ).map { Self.checkpoint($0, "read") }
        }
    }

    /// The owner's matches after `after` (after their read marker when nil), oldest first, at most `limit`.
    func matches(of owner: UUID, after: Checkpoint?, limit: Int) async throws -> [AlertMatchResult] {
        var opened: [(alert: StoredAlert, criteria: AlertCriteria)] = []
        for alert in try await alerts(of: owner) {
            if let criteria = try await criteria(of: alert) { opened.append((alert, criteria)) }
        }
        guard !opened.isEmpty else { return [] }
        var marker = after
        if marker == nil { marker = try await readMarker(of: owner) }
        let floor = marker ?? .start
        let searches = opened
        let found = try await readModel.pool.read { db in
            var byListing: [UUID: (posted: Checkpoint, match: AlertMatchResult)] = [:]
            for (alert, criteria) in searches {
                var keywords: String?
                if let words = criteria.keywords?.words {
                    // Words with nothing to search for (refused since issue 21) match nothing.
                    guard let expression = try? FullTextQuery(words: words).expression() else { continue }
                    keywords = expression
                }
                let filters = ListingFilters(
                    category: criteria.category, keywords: keywords, status: .available,
                    order: .recent, postedAfter: max(floor, alert.created))
                for row in try GeoSearchAPI.listingCandidates(criteria.indexBoxes, filters: filters, in: db) {
                    guard let point = GeoCoordinate(lat: row.lat, lon: row.lon), criteria.covers(point) else { continue }
                    if byListing[row.id] != nil {
                        byListing[row.id]?.match.alertIds.append(alert.id)
                    } else {
                        let listing = ListingResult(row, point: point, distanceMeters: criteria.center.distanceMeters(to: point))
                        byListing[row.id] = (row.posted, AlertMatchResult(id: row.posted.description, alertIds: [alert.id], listing: listing))
                    }
                }
            }
            return byListing.values.sorted { $0.posted < $1.posted }.prefix(limit).map(\.match)
        }
        return found
    }

    private static func checkpoint(_ row: Row, _ prefix: String) -> Checkpoint {
        Checkpoint(transaction: UInt64(bitPattern: row["\(prefix)_tx"]), position: row["\(prefix)_pos"])
    }
}
