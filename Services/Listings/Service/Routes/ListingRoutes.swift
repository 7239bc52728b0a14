import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    struct StatusBody: Decodable { var status: String }

    func addListingRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/listings") { request, context in
            let identity = try context.requireIdentity()
            let body = try await request.decodeJSON(as: ListingBody.self, context: context)
            let draft = body.draft
            let badImages = try await imageProblems(draft.imageIds, by: identity.accountId)
            let problems = draft.normalized.problems().merging(badImages) { $0 + $1 }
            guard problems.isEmpty else { throw Problem.validation(problems) }
            let id = context.idempotentEventId(request.headers[.idempotencyKey], salt: "listing")
            let result = try await commands.post(draft, by: identity.accountId, id: id, metadata: context.eventMetadata)
            return try await posted(result, owner: identity.accountId)
        }
        router.get("/v1/listings/{id}") { _, context in
            let id = try context.parameters.uuid("id")
            let view = try await view(id, as: context.identity?.accountId, moderator: context.identity?.role == .admin)
            return try Response.json(view, version: view.version)
        }
        router.patch("/v1/listings/{id}") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let expected = try request.requireIfMatch()
            let body = try await request.decodeJSON(as: ListingBody.self, context: context)
            let attached = try await body.imageIds == nil ? [] : commands.load(id).imageIds
            let badImages = try await imageProblems(body.imageIds ?? [], by: identity.accountId, keeping: Set(attached))
            let result = try await commands.edit(
                id, by: identity.accountId, expectedVersion: expected, metadata: context.eventMetadata,
                alsoInvalid: badImages
            ) { draft in
                body.patch(&draft)
            }
            return try await written((result.0, result.1), owner: identity.accountId)
        }
        router.delete("/v1/listings/{id}") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let result = try await commands.withdraw(id, by: identity.accountId, metadata: context.eventMetadata)
            return try await written(result, owner: identity.accountId)
        }
        router.post("/v1/listings/{id}/status") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: StatusBody.self, context: context)
            guard let status = ListingStatus(rawValue: body.status), [.available, .given, .sold].contains(status) else {
                throw Problem.validation(["status": ["must be available, given or sold"]])
            }
            let result = try await commands.changeStatus(id, to: status, by: identity.accountId, metadata: context.eventMetadata)
            return try await written(result, owner: identity.accountId)
        }
        router.post("/v1/listings/{id}/renew") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let result = try await commands.renew(id, by: identity.accountId, metadata: context.eventMetadata)
            return try await written(result, owner: identity.accountId)
        }
        router.get("/v1/listings/{id}/history") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let state = try await commands.load(id)
            guard state.ownerId == identity.accountId else { throw ListingError.notOwner }
            let recorded = try await runtime.store.read(stream: ListingStreams.listing(id))
            let items = try recorded.map { event -> ListingHistoryEntry in
                let decoded = try CommonsEvents.catalog.decode(event)
                return ListingHistoryEntry(
                    version: event.version, type: event.type, recordedAt: event.recordedAt, actorId: event.metadata.actorId,
                    status: (decoded as? ListingStatusChanged).map { CommonsAPI.ListingStatus(rawValue: $0.status.rawValue) },
                    requesterId: (decoded as? ListingPromised)?.requesterId)
            }
            return try Response.json(Items(items: items), version: state.version)
        }
    }

    /// Each image id that `actor` may not attach (never uploaded, or uploaded by someone
    /// else), by its path in the body; ids in `attached` (already on the listing) may stay.
    func imageProblems(_ ids: [UUID], by actor: UUID, keeping attached: Set<UUID> = []) async throws -> [String: [String]] {
        try await ImageUploads.problems(
            attaching: Array(ids.prefix(ListingDraft.maximumImages)), by: actor, keeping: attached, in: runtime.store
        ) { "imageIds[\($0)]" }
    }
}
