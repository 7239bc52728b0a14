import CommonsAPI
import Contracts
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    func addMemberRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/lists/{id}/members") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: NewListMember.self, context: context)
            if try await !read({ db in try ProductQueries.isLiveAccount(body.accountId, in: db) }) {
                try await requireMembership(listId, identity.accountId)
                throw Problem.validation(["accountId": ["is not an account"]])
            }
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .addMember(body.accountId))], on: listId,
                by: identity.accountId, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            let members = ([outcome.state.ownerId].compactMap { $0 } + outcome.state.members.sorted { $0.uuidString < $1.uuidString })
            return try Response.json(ListMembers(members: members), version: outcome.version, position: outcome.position)
        }
        router.delete("/v1/lists/{id}/members/{accountId}") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let account = try context.parameters.uuid("accountId")
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .removeMember(account))], on: listId,
                by: identity.accountId, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            return Response.empty(position: outcome.position)
        }
    }
}
