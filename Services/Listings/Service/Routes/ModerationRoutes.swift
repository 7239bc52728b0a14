import Codecs
import CommonsAPI
import Contracts
import Foundation
import GRDB
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct ReportBody: Decodable { var reason: String? }
    struct ResolveBody: Decodable { var decision: String }

    static let maximumReasonLength = 500

    func addModerationRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/listings/{id}/reports") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: ReportBody.self, context: context)
            let reason = body.reason?.trimmingWhitespaceAndNewlines() ?? ""
            guard (1...Self.maximumReasonLength).contains(reason.count) else {
                throw Problem.validation(["reason": ["must be 1 to \(Self.maximumReasonLength) characters"]])
            }
            _ = try await view(id, as: identity.accountId)
            let position = try await commands.report(id, by: identity.accountId, reason: reason, metadata: context.eventMetadata)
            return try Response.json(StatusAnswer(status: "reported"), status: .accepted, position: position)
        }
        router.get("/v1/listings/reports") { request, context in
            _ = try context.requireAdmin()
            let paging = try ListPaging<ListingAfter>(request, list: "reports")
            // A page of listings (in id order), each with all its open reports.
            let rows = try runtime.readModel.readInPlace { db -> [Row] in
                try Row.fetchAll(
                    db,
                    sql: """
                        WITH page AS (
                            SELECT DISTINCT listing_id FROM listing_reports
                            WHERE open = 1 AND listing_id > ? ORDER BY listing_id LIMIT ?)
                        SELECT r.listing_id, r.reporter_id, r.reason, r.reason_form, r.reported_at, l.title, l.status
                        FROM page JOIN listing_reports r ON r.listing_id = page.listing_id AND r.open = 1
                        JOIN listings l ON l.listing_id = r.listing_id
                        ORDER BY r.listing_id, r.reported_at
                        """, arguments: [paging.after?.listing.lowercasedText ?? "", paging.limit + 1])
            }
            var items: [ReportedListing] = []
            for row in rows {
                let reason: String? =
                    switch row["reason_form"] as String {
                    case "sealed": try await commands.sealer.open(json: row["reason"], as: String.self)
                    case "clear": row["reason"]
                    default: nil
                    }
                let report = ReportedListing.Report(
                    reporterId: row["reporter_id"], reason: reason, reportedAt: Date(timeIntervalSince1970: row["reported_at"]))
                if items.last?.listingId == row["listing_id"] {
                    items[items.count - 1].reports.append(report)
                } else {
                    items.append(
                        ReportedListing(
                            listingId: row["listing_id"], title: row["title"], status: CommonsAPI.ListingStatus(rawValue: row["status"]),
                            reports: [report]))
                }
            }
            let more = items.count > paging.limit
            items = Array(items.prefix(paging.limit))
            let last = more ? items.last.flatMap { UUID(uuidString: $0.listingId) }.map(ListingAfter.init(listing:)) : nil
            return try Response.json(Page(items: items, nextCursor: paging.nextCursor(lastShown: last)))
        }
        router.post("/v1/listings/{id}/reports/resolve") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: ResolveBody.self, context: context)
            guard ["dismissed", "removed"].contains(body.decision) else { throw Problem.validation(["decision": ["must be dismissed or removed"]]) }
            let (state, position) = try await commands.resolveReports(
                id, decision: body.decision, by: admin.accountId, metadata: context.eventMetadata)
            return try Response.json(StatusAnswer(status: state.storedStatus.rawValue), position: position)
        }
    }
}
