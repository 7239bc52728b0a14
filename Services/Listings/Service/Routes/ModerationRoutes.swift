import Contracts
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct ReportBody: Decodable { var reason: String? }
    struct ResolveBody: Decodable { var decision: String }

    /// A listing with open reports, as administrators see it.
    struct ReportedListing: Encodable {
        var listingId: String
        var title: String
        var status: String
        var reports: [ReportView]
    }

    struct ReportView: Encodable {
        var reporterId: String
        var reason: String
        var reportedAt: Date
    }

    static let maximumReasonLength = 500

    func addModerationRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/listings/{id}/reports") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: ReportBody.self, context: context)
            let reason = body.reason?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard (1...Self.maximumReasonLength).contains(reason.count) else {
                throw Problem.validation(["reason": ["must be 1 to \(Self.maximumReasonLength) characters"]])
            }
            _ = try await view(id, as: identity.accountId)
            let position = try await run { try await commands.report(id, by: identity.accountId, reason: reason, metadata: context.eventMetadata) }
            return try Response.json(["status": "reported"], status: .accepted, position: position)
        }
        router.get("/v1/listings/reports") { _, context in
            _ = try context.requireAdmin()
            let items = try await runtime.readModel.pool.read { db -> [ReportedListing] in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT r.listing_id, r.reporter_id, r.reason, r.reported_at, l.title, l.status
                    FROM listing_reports r JOIN listings l ON l.listing_id = r.listing_id
                    WHERE r.open = 1 ORDER BY r.listing_id, r.reported_at
                    """)
                var grouped: [ReportedListing] = []
                for row in rows {
                    let report = ReportView(reporterId: row["reporter_id"], reason: row["reason"], reportedAt: Date(timeIntervalSince1970: row["reported_at"]))
                    if grouped.last?.listingId == row["listing_id"] {
                        grouped[grouped.count - 1].reports.append(report)
                    } else {
                        grouped.append(ReportedListing(listingId: row["listing_id"], title: row["title"], status: row["status"], reports: [report]))
                    }
                }
                return grouped
            }
            return try Response.json(["items": items])
        }
        router.post("/v1/listings/{id}/reports/resolve") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: ResolveBody.self, context: context)
            guard ["dismissed", "removed"].contains(body.decision) else { throw Problem.validation(["decision": ["must be dismissed or removed"]]) }
            let (state, position) = try await run {
                try await commands.resolveReports(id, decision: body.decision, by: admin.accountId, metadata: context.eventMetadata)
            }
            return try Response.json(["status": state.storedStatus.rawValue], position: position)
        }
    }
}
