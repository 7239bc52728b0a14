import CommonsAPI
import Contracts
import DonationsDomain
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

// `POST /v1/organizations` and `PATCH /v1/organizations/{id}` take CommonsAPI's
// `OrganizationFields`: the body of a new organisation, or the fields to change (absent
// means unchanged).
extension OrganizationFields {
    /// A new organisation's draft; the required fields are listed when missing.
    func draft() throws -> OrganizationDraft {
        let kind = try parsedKind()
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
            name: name, slug: slug, kind: kind, mission: mission, currency: currency.rawValue, minimumDonationMinor: minimumDonationMinor)
        apply(to: &draft, kind: kind)
        return draft
    }

    /// Sets every field this body has; `kind` is its kind, parsed.
    func apply(to draft: inout OrganizationDraft, kind: Contracts.OrganizationKind?) {
        if let name { draft.name = name }
        if let kind { draft.kind = kind }
        if let mission { draft.mission = mission }
        if let description { draft.description = description }
        if let homepage { draft.homepage = homepage }
        if let logoImageId { draft.logoImageId = logoImageId }
        if let categories { draft.categories = categories }
        if let tags { draft.tags = tags }
        if let rating {
            draft.rating = rating
        }
        if let currency { draft.currency = currency.rawValue }
        if let minimumDonationMinor { draft.minimumDonationMinor = minimumDonationMinor }
        if let suggestedAmountsMinor { draft.suggestedAmountsMinor = suggestedAmountsMinor }
        if let address { draft.address = address }
        if let location { draft.location = location }
        if let openingHours { draft.openingHours = openingHours }
        if let acceptedCategories { draft.acceptedCategories = acceptedCategories.map(\.rawValue) }
    }

    /// The kind named, if any; a 400 for a kind there is not.
    func parsedKind() throws -> Contracts.OrganizationKind? {
        try kind.map { try Problem.parse($0.rawValue, field: "kind") }
    }
}

struct VerificationBody: Decodable { var verified: Bool }

extension DonationsAPI {
    func addOrganizationRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/organizations") { request, _ in
            var query = QueryReader(request)
            var filter = OrganizationFilter(
                category: query.filter("category"), tag: query.filter("tag"),
                kind: query.choice("kind", as: Contracts.OrganizationKind.self), verified: query.bool("verified"))
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
            let identity = try context.requireAdmin()
            let draft = try await request.decodeJSON(as: OrganizationFields.self, context: context).draft()
            try await requireAttachable(logo: draft.logoImageId, by: identity.accountId)
            let (state, position) = try await commands.register(draft, metadata: context.eventMetadata)
            return try await answer(state, position: position, status: .created)
        }
        router.patch("/v1/organizations/{id}") { request, context in
            let identity = try context.requireAdmin()
            let id = try await organizationId(context)
            let expected = try request.requireIfMatch()
            let body = try await request.decodeJSON(as: OrganizationFields.self, context: context)
            let kind = try body.parsedKind()
            let current = try await commands.organization(id).draft
            if let slug = body.slug, slug.lowercased() != current?.slug {
                throw Problem.validation(["slug": ["cannot change: links to the organisation must keep working"]])
            }
            try await requireAttachable(logo: body.logoImageId, by: identity.accountId, keeping: current?.logoImageId)
            let (state, position) = try await commands.update(id, expectedVersion: expected, metadata: context.eventMetadata) {
                body.apply(to: &$0, kind: kind)
            }
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
            let estimate = try await request.decodeJSON(as: NewImpactEstimate.self, context: context)
            let (added, position) = try await commands.addEstimate(
                estimate, to: id, estimateId: context.idempotentEventId(key, salt: "estimate \(id.lowercasedText)"), metadata: context.eventMetadata)
            return try Response.json(
                ImpactEstimate(added), status: .created, position: position,
                location: "/v1/organizations/\(id.lowercasedText)")
        }
    }

    /// Refuses (422) a logo that `admin` did not upload; the organisation's present logo may stay.
    func requireAttachable(logo: UUID?, by admin: UUID, keeping current: UUID? = nil) async throws {
        guard let logo else { return }
        let problems = try await ImageUploads.problems(
            attaching: [logo], by: admin, keeping: Set([current].compactMap { $0 }), in: runtime.store
        ) { _ in "logoImageId" }
        guard problems.isEmpty else { throw Problem.validation(problems) }
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
        guard let view = Organization(state) else { throw Problem.notFound("There is no such organisation.") }
        return try Response.json(
            view, status: status, version: state.version, position: position,
            location: status == .created ? "/v1/organizations/\(view.slug)" : nil)
    }
}
