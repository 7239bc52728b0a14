import CommonsAPI
import Contracts
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    func addItemRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/lists/{id}/items") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: NewListItem.self, context: context)
            if let product = body.productId, try await read({ db in try ProductQueries.product(product, in: db) }) == nil {
                try await requireMembership(listId, identity.accountId)
                throw Problem.validation(["productId": ["is not a product of the catalogue"]])
            }
            let itemId = body.itemId ?? UUID()
            let command = ShoppingListCommand.addItem(
                itemId: itemId, productId: body.productId, text: body.text, quantity: body.quantity ?? 1, note: body.note)
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: command)], on: listId, by: identity.accountId,
                metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            let item = outcome.state.items[itemId]
            return try Response.json(
                ListItemState(id: itemId, quantity: item?.quantity ?? 0, checked: item?.checked ?? false), status: .created,
                version: outcome.version, position: outcome.position, location: "/v1/lists/\(listId.lowercasedText)/items/\(itemId.lowercasedText)")
        }
        router.patch("/v1/lists/{id}/items/{itemId}") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let itemId = try context.parameters.uuid("itemId")
            let patch = try await request.decodeJSON(as: ListItemChange.self, context: context)
            if let delta = patch.quantityDelta, let problem = ShoppingListRules.deltaProblem(delta) {
                throw Problem.validation(["quantityDelta": [problem]])
            }
            let commands = patch.commands(for: itemId)
            guard !commands.isEmpty else {
                throw Problem.validation(["quantityDelta": ["give quantityDelta, checked, note or after"]], detail: "The request changes nothing.")
            }
            let base = request.commandId
            let outcome = try await lists.execute(
                commands.enumerated().map { ClientCommand(commandId: "\(base)#\($0.offset)", command: $0.element) },
                on: listId, by: identity.accountId, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            let item = outcome.state.items[itemId]
            return try Response.json(
                ListItemState(id: itemId, quantity: item?.quantity ?? 0, checked: item?.checked ?? false),
                version: outcome.version, position: outcome.position)
        }
        router.delete("/v1/lists/{id}/items/{itemId}") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let itemId = try context.parameters.uuid("itemId")
            let outcome = try await lists.execute(
                [ClientCommand(commandId: request.commandId, command: .removeItem(itemId: itemId))], on: listId,
                by: identity.accountId, metadata: context.eventMetadata)
            try Self.throwFirstRejection(outcome)
            return Response.empty(position: outcome.position)
        }
    }

    /// 404 unless `account` is a member of the list (as the read model knows).
    func requireMembership(_ listId: UUID, _ account: UUID) async throws {
        guard try await read({ db in try ListQueries.list(listId, for: account, in: db) }) != nil else {
            throw ShoppingListError.listNotFound
        }
    }
}

extension ListItemChange {
    /// The domain commands of this edit of `itemId`, one per field present.
    func commands(for itemId: UUID) -> [ShoppingListCommand] {
        var commands: [ShoppingListCommand] = []
        if let quantityDelta { commands.append(.changeQuantity(itemId: itemId, delta: quantityDelta)) }
        if let checked { commands.append(.setChecked(itemId: itemId, checked: checked)) }
        if let note { commands.append(.setNote(itemId: itemId, note: note.value)) }
        if let after { commands.append(.move(itemId: itemId, after: after.value)) }
        return commands
    }
}
