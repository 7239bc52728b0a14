import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    struct NameBody: Decodable { var name: String }

    func addListRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/lists") { request, context in
            let identity = try context.requireIdentity()
            let body = try await request.decodeJSON(as: NameBody.self, context: context)
            // With an Idempotency-Key, a retry names the same list, so even a retry that
            // reaches another replica is recognised by the log.
            let listId = context.idempotentEventId(request.headers[.idempotencyKey], salt: "shopping-list")
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .create(name: body.name))], on: listId,
                by: identity.accountId, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            let view = ListSummary(
                id: listId, name: ShoppingListRules.trimmed(body.name), ownerId: identity.accountId, role: "owner",
                itemCount: 0, uncheckedCount: 0, version: outcome.version)
            return try Response.json(
                view, status: .created, version: outcome.version, position: outcome.position,
                location: "/v1/lists/\(listId.lowercasedText)")
        }
        router.get("/v1/lists") { request, context in
            let identity = try context.requireIdentity()
            let (limit, after) = try Self.page(request.queryValues, defaultLimit: 50, queryKey: "lists|\(identity.accountId.lowercasedText)")
            let (stored, next) = try await read { db in try ListQueries.lists(of: identity.accountId, limit: limit, after: after, in: db) }
            let reader = sealer.reader()
            var items: [ListSummary] = []
            for list in stored { items.append(try await summary(list, for: identity.accountId, reader: reader)) }
            return try Response.json(
                Page(items: items, nextCursor: next.map { SearchCursor.encode($0, queryKey: "lists|\(identity.accountId.lowercasedText)") }))
        }
        router.get("/v1/lists/{id}") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            guard let stored = try await read({ db in try ListQueries.list(id, for: identity.accountId, in: db) }) else {
                throw ShoppingListError.listNotFound
            }
            let view = try await view(stored, for: identity.accountId, reader: sealer.reader())
            return try Response.json(view, version: view.version)
        }
        router.patch("/v1/lists/{id}") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let expected = try request.ifMatchVersion()
            let body = try await request.decodeJSON(as: NameBody.self, context: context)
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .rename(name: body.name))], on: id,
                by: identity.accountId, expectedVersion: expected, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            return try Response.json(
                ["id": id.lowercasedText, "name": ShoppingListRules.trimmed(body.name)], version: outcome.version, position: outcome.position)
        }
        router.delete("/v1/lists/{id}") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let expected = try request.ifMatchVersion()
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .delete)], on: id, by: identity.accountId,
                expectedVersion: expected, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            return Response.empty(position: outcome.position)
        }
    }

    /// A single edit answers with its command's problem when it was refused.
    static func throwFirstRejection(_ outcome: BatchOutcome) throws {
        for result in outcome.results { if case .rejected(let error) = result { throw error } }
    }
}
