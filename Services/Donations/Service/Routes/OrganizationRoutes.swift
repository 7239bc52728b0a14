import Contracts
import DonationsDomain
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

/// `POST /v1/organizations` and `PATCH /v1/organizations/{id}`: the body of a new
/// organisation, or the fields to change (absent means unchanged).
struct OrganizationBody: Decodable {
    var name: String?
    var slug: String?
    var kind: OrganizationKind?
    var mission: String?
    var description: String?
    var homepage: String?
    var logoImageId: UUID?
    var categories: [String]?
    var tags: [String]?
    var rating: OrganizationRating?
    var currency: String?
    var minimumDonationMinor: Int?
    var suggestedAmountsMinor: [Int]?
    var address: String?
    var location: Coordinate?
    var openingHours: [OpeningHours]?
    var acceptedCategories: [String]?

    /// A new organisation's draft; the required fields are listed when missing.
    func draft() throws -> OrganizationDraft {
        var missing = FieldProblems()
        for (field, present) in [
            ("name", name != nil), ("slug", slug != nil), ("kind", kind != nil), ("mission", mission != nil),
            ("currency", currency != nil), ("minimumDonationMinor", minimumDonationMinor != nil),
        ] where !present {
            missing.add("is required", to: field)
        }
        guard missing.isEmpty, let name, let slug, let kind, let mission, let currency, let minimumDonationMinor else {
            throw Problem.malformed("Required fields are missing.", errors: missing.byField)
        }
        var draft = OrganizationDraft(
            name: name, slug: slug, kind: kind, mission: mission, currency: currency, minimumDonationMinor: minimumDonationMinor)
        apply(to: &draft)
        return draft
    }

    /// Sets every field this body has.
    func apply(to draft: inout OrganizationDraft) {
        if let name { draft.name = name }
        if let kind { draft.kind = kind }
        if let mission { draft.mission = mission }
        if let description { draft.description = description }
        if let homepage { draft.homepage = homepage }
        if let logoImageId { draft.logoImageId = logoImageId }
        if let categories { draft.categories = categories }
        if let tags { draft.tags = tags }
        if let rating { draft.rating = rating }
        if let currency { draft.currency = currency }
        if let minimumDonationMinor { draft.minimumDonationMinor = minimumDonationMinor }
        if let suggestedAmountsMinor { draft.suggestedAmountsMinor = suggestedAmountsMinor }
        if let address { draft.address = address }
        if let location { draft.location = location }
        if let openingHours { draft.openingHours = openingHours }
        if let acceptedCategories { draft.acceptedCategories = acceptedCategories }
    }
}

struct VerificationBody: Decodable { var verified: Bool }

struct EstimateBody: Decodable {
    var outcomeUnit: String
    var costPerOutcomeMinor: Int
    var currency: String
    var source: String
    var sourceURL: String?
    var publishedOn: String
}

extension DonationsAPI {
    func addOrganizationRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/organizations") { request, _ in
            var query = QueryReader(request)
            var filter = OrganizationFilter(
                category: query.filter("category"), tag: query.filter("tag"),
                kind: query.choice("kind", as: OrganizationKind.self), verified: query.bool("verified"))
            do throws(FullTextQuery.Invalid) {
                filter.match = try FullTextQuery.parse(query.text("q"))?.expression()
            } catch {
                query.report(error.message, for: "q")
            }
            let limit = query.limit()
            let list = "organizations|\(filter.canonical)"
            let cursor = query.cursor(list: list)
            try query.check()
            return try Response.json(try await organizations.list(filter, limit: limit, after: cursor, list: list))
        }
        router.get("/v1/organizations/{id}") { _, context in
            guard let id = context.parameters.get("id"), let view = try await organizations.one(id) else {
                throw Problem.notFound("There is no such organisation.")
            }
            return try Response.json(view, version: view.version)
        }
        router.post("/v1/organizations") { request, context in
            _ = try context.requireAdmin()
            let draft = try await request.decodeJSON(as: OrganizationBody.self, context: context).draft()
            let (state, position) = try await commands.register(draft, metadata: context.eventMetadata)
            return try await answer(state, position: position, status: .created)
        }
        router.patch("/v1/organizations/{id}") { request, context in
            _ = try context.requireAdmin()
            let id = try await organizationId(context)
            let expected = try request.requireIfMatch()
            let body = try await request.decodeJSON(as: OrganizationBody.self, context: context)
            if let slug = body.slug, slug.lowercased() != (try await commands.organization(id).draft?.slug) {
                throw Problem.validation(["slug": ["cannot change: links to the organisation must keep working"]])
            }
            let (state, position) = try await commands.update(id, expectedVersion: expected, metadata: context.eventMetadata) { body.apply(to: &$0) }
            return try await answer(state, position: position)
        }
        router.put("/v1/organizations/{id}/verification") { request, context in
            _ = try context.requireAdmin()
            let id = try await organizationId(context)
            let body = try await request.decodeJSON(as: VerificationBody.self, context: context)
            let (state, position) = try await commands.verify(id, verified: body.verified, metadata: context.eventMetadata)
            return try await answer(state, position: position)
        }
        router.post("/v1/organizations/{id}/impact-estimates") { request, context in
            _ = try context.requireAdmin()
            let id = try await organizationId(context)
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: EstimateBody.self, context: context)
            let draft = ImpactEstimateDraft(
                outcomeUnit: body.outcomeUnit, costPerOutcomeMinor: body.costPerOutcomeMinor, currency: body.currency,
                source: body.source, sourceURL: body.sourceURL, publishedOn: body.publishedOn)
            let (estimate, position) = try await commands.addEstimate(
                draft, to: id, estimateId: context.idempotentEventId(key, salt: "estimate \(id.lowercasedText)"), metadata: context.eventMetadata)
            return try Response.json(
                EstimateView(estimate), status: .created, position: position,
                location: "/v1/organizations/\(id.lowercasedText)")
        }
    }

    /// The organisation named by the path (id or slug), or 404.
    func organizationId(_ context: AppRequestContext) async throws -> UUID {
        guard let text = context.parameters.get("id"), let id = try await commands.organizationId(text) else {
            throw Problem.notFound("There is no such organisation.")
        }
        return id
    }

    /// The organisation after a write, from its stream (the read model may not have it yet).
    private func answer(_ state: OrganizationState, position: Checkpoint?, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let view = OrganizationView(state) else { throw Problem.notFound("There is no such organisation.") }
        return try Response.json(
            view, status: status, version: state.version, position: position,
            location: status == .created ? "/v1/organizations/\(view.slug)" : nil)
    }
}
