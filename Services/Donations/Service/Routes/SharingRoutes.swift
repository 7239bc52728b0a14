import Codecs
import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import Hummingbird
import ServiceKit

extension DonationsAPI {
    func addSharingRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/donations/{id}/posts") { request, context in
            let identity = try context.requireIdentity()
            let donation = try context.parameters.uuid("id")
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: NewDonationPost.self, context: context)
            if let image = body.imageId {
                let problems = try await ImageUploads.problems(attaching: [image], by: identity.accountId, in: runtime.store) { _ in "imageId" }
                guard problems.isEmpty else { throw Problem.validation(problems) }
            }
            let (shared, position) = try await commands.share(
                donation: donation, account: identity.accountId, caption: body.caption, imageId: body.imageId,
                postId: context.idempotentEventId(key, salt: "post \(donation.lowercasedText)"), metadata: context.eventMetadata)
            let organization = try await commands.organization(shared.organizationId)
            return try Response.json(
                DonationPost(
                    id: shared.postId, donationId: shared.donationId, accountId: shared.accountId,
                    organization: OrganizationRef(
                        id: shared.organizationId, slug: organization.draft?.slug ?? "", name: organization.draft?.name ?? ""),
                    caption: body.caption.trimmingWhitespaceAndNewlines(), imageId: shared.imageId, sharedAt: shared.at),
                status: .created, position: position, location: "/v1/donation-posts")
        }
        router.get("/v1/donation-posts") { request, _ in
            var query = QueryReader(request)
            let limit = query.limit()
            let cursor = query.cursor(list: "donation-posts")
            try query.check()
            let (records, next) = try await donations.feed(limit: limit, after: cursor, list: "donation-posts")
            var items: [DonationPost] = []
            for record in records {
                // A caption whose author's key is gone cannot be shown; the post goes with it.
                guard let caption = try await open(record.sealedCaption) else { continue }
                items.append(
                    DonationPost(
                        id: record.id, donationId: record.donationId, accountId: record.accountId, organization: record.organization,
                        caption: caption, imageId: record.imageId, sharedAt: record.sharedAt))
            }
            return try Response.json(Page(items: items, nextCursor: next))
        }
        router.get("/v1/organizations/{id}/supporters") { request, context in
            guard let text = context.parameters.get("id"), let organization = try await organizations.one(text) else {
                throw Problem.notFound("There is no such organisation.")
            }
            let id = organization.id
            var query = QueryReader(request)
            let limit = query.limit()
            let list = "supporters|\(id.lowercasedText)"
            let cursor = query.cursor(list: list)
            try query.check()
            return try Response.json(try await donations.supporters(of: id, limit: limit, after: cursor, list: list))
        }
        router.get("/v1/impact") { _, context in
            let identity = try context.requireIdentity()
            return try Response.json(["items": try await impact(of: identity.accountId)])
        }
    }

    private func impact(of account: UUID) async throws -> [CommonsAPI.Impact] {
        let records = try await donations.all(of: account)
        let estimates = try await donations.estimates(of: Set(records.map(\.organization.id)))
        var views: [CommonsAPI.Impact] = []
        let groups = Dictionary(grouping: records) { "\($0.organization.id.lowercasedText) \($0.currency)" }
        for key in groups.keys.sorted() {
            let group = groups[key]!
            let first = group[0]
            let history = estimates[first.organization.id] ?? []
            var view = CommonsAPI.Impact(
                organization: first.organization, currency: CurrencyCode(rawValue: first.currency),
                donatedMinor: group.reduce(0) { $0 + $1.amountMinor },
                donations: group.count, outcomeUnit: history.first?.outcomeUnit)
            if let current = history.first {
                view.today = current.outcomes(amountMinor: view.donatedMinor, currency: first.currency)
                    .map { CommonsAPI.Impact.Achieved(outcomes: $0, estimates: [current]) }
                var outcomes = 0.0
                var used: [ImpactEstimate] = []
                for record in group {
                    guard let estimate = history.first(where: { $0.id.lowercasedText == record.estimateId }),
                        let achieved = estimate.outcomes(amountMinor: record.amountMinor, currency: record.currency)
                    else { continue }
                    outcomes += achieved
                    if !used.contains(where: { $0.id == estimate.id }) { used.append(estimate) }
                }
                if !used.isEmpty { view.atDonation = CommonsAPI.Impact.Achieved(outcomes: outcomes, estimates: used) }
            }
            views.append(view)
        }
        return views
    }
}
