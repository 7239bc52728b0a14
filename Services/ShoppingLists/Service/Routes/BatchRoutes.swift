import CommonsAPI
import Contracts
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    static let maxBatch = 200

    func addBatchRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/lists/{id}/commands") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: ListCommandBatch.self, context: context)
            let commands = try Self.commands(body, list: listId, actor: identity.accountId)
            let outcome = try await lists.execute(commands, on: listId, by: identity.accountId, metadata: context.eventMetadata)
            // A batch for a list the caller cannot see reveals nothing, however its commands went.
            if outcome.results.allSatisfy({ if case .rejected(.listNotFound) = $0 { true } else { false } }) {
                throw ShoppingListError.listNotFound
            }
            var results: [String: ListCommandResults.Result] = [:]
            for (command, result) in zip(commands, outcome.results) {
                switch result {
                case .applied(let replayed): results[command.commandId] = .init(status: "applied", replayed: replayed)
                case .rejected(let error): results[command.commandId] = .init(status: "rejected", problem: ProblemDocument(error.problem))
                }
            }
            return try Response.json(
                ListCommandResults(results: results, version: outcome.version), version: outcome.version, position: outcome.position)
        }
    }

    /// The domain commands of `actor`'s batch for list `listId`; a 422 listing every malformed entry.
    static func commands(_ body: ListCommandBatch, list listId: UUID, actor: UUID) throws -> [ClientCommand] {
        var errors: [String: [String]] = [:]
        if body.commands.isEmpty { errors["commands"] = ["must hold at least one command"] }
        if body.commands.count > maxBatch { errors["commands"] = ["must hold at most \(maxBatch) commands"] }
        var seen = Set<String>()
        var commands: [ClientCommand] = []
        for (index, entry) in body.commands.enumerated() {
            let path = "commands[\(index)]"
            func need<T>(_ value: T?, _ field: String) -> T? {
                if value == nil { errors["\(path).\(field)", default: []].append("is required for \(entry.type)") }
                return value
            }
            if !(1...100).contains(entry.commandId.count) { errors["\(path).commandId"] = ["must be 1 to 100 characters"] }
            if !seen.insert(entry.commandId).inserted { errors["\(path).commandId"] = ["is used by another command of this batch"] }
            let command: ShoppingListCommand?
            switch entry.type {
            case "addItem":
                command = .addItem(
                    itemId: entry.itemId ?? ShoppingStreams.itemId(list: listId, actor: actor, command: entry.commandId), productId: entry.productId,
                    text: entry.text, quantity: entry.quantity ?? 1, note: entry.note)
            case "changeQuantity":
                if let delta = entry.delta, let problem = ShoppingListRules.deltaProblem(delta) { errors["\(path).delta"] = [problem] }
                command = need(entry.itemId, "itemId").flatMap { item in need(entry.delta, "delta").map { .changeQuantity(itemId: item, delta: $0) } }
            case "check", "uncheck":
                command = need(entry.itemId, "itemId").map { .setChecked(itemId: $0, checked: entry.type == "check") }
            case "setNote":
                command = need(entry.itemId, "itemId").map { .setNote(itemId: $0, note: entry.note) }
            case "move":
                command = need(entry.itemId, "itemId").map { .move(itemId: $0, after: entry.after) }
            case "removeItem":
                command = need(entry.itemId, "itemId").map { .removeItem(itemId: $0) }
            case "rename":
                command = need(entry.name, "name").map { .rename(name: $0) }
            default:
                errors["\(path).type"] = ["must be one of addItem, changeQuantity, check, uncheck, setNote, move, removeItem, rename"]
                command = nil
            }
            if let command { commands.append(ClientCommand(commandId: entry.commandId, command: command)) }
        }
        guard errors.isEmpty else { throw Problem.validation(errors) }
        return commands
    }
}
