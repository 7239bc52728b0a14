import Contracts
import EventLog
import Foundation
import GRDB
import Hummingbird
import ReadModel
import ServiceKit
import ShoppingListsDomain

/// The HTTP face of shopping-lists: the catalogue, reviews and favourites, and lists.
package struct ShoppingListsAPI: Sendable {
    let runtime: ServiceRuntime
    let lists: ShoppingListCommands
    let opinions: OpinionCommands
    let sealer: TextSealer
    /// Product search pages as sent, under the catalogue's version token: people search the
    /// same few words, and the full-text match and ranking cost more than the rest of a request.
    let productPages = VersionedAnswerCache<ProductQuery>(capacity: 256, largestAnswer: 64 * 1024, byteBudget: 4 << 20)

    init(runtime: ServiceRuntime, clock: WallClock) {
        self.runtime = runtime
        sealer = TextSealer(vault: runtime.keyVault)
        let readModel = runtime.readModel
        lists = ShoppingListCommands(store: runtime.store, sealer: sealer) { account in
            try await readModel.pool.read { db in try ProductQueries.isDeletedAccount(account, in: db) }
        }
        opinions = OpinionCommands(store: runtime.store, sealer: sealer, clock: clock)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        addProductRoutes(to: router)
        addOpinionRoutes(to: router)
        // Before the routes of one list, so that `events` is not read as a list's id.
        addMyListsLiveRoutes(to: router)
        addListRoutes(to: router)
        addItemRoutes(to: router)
        addMemberRoutes(to: router)
        addBatchRoutes(to: router)
        addLiveRoutes(to: router)
    }

    /// Reads the live read model.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try await runtime.readModel.pool.read(body)
    }

}

extension ShoppingListError: ProblemConvertible {
    /// The problem document for this error. A list the caller may not see is a 404, never a 403.
    public var problem: Problem {
        switch self {
        case .invalid(let errors): .validation(errors)
        case .listNotFound: .notFound("There is no such list.")
        case .listExists: .conflict("This list exists already.", type: "list-exists")
        case .itemNotFound: .notFound("This list has no such item.")
        case .itemRemoved: .conflict("This item was removed from the list; add it again instead.", type: "item-removed")
        case .itemExists: .conflict("This list has an item with this id already.", type: "item-exists")
        case .listFull:
            .conflict("This list holds \(ShoppingListRules.maxItems) items, the most it can; remove some first.", type: "list-full")
        case .ownerOnly: .forbidden("Only the list's owner may do this.")
        case .ownerCannotLeave: .conflict("The owner cannot leave a list; delete it instead.", type: "owner-cannot-leave")
        case .memberNotFound: .notFound("This account is not a member of the list.")
        }
    }
}

extension Request {
    /// The query parameters, the first value of each name.
    var queryValues: [String: String] {
        var values: [String: String] = [:]
        for (name, value) in uri.queryParameters where values[String(name)] == nil { values[String(name)] = String(value) }
        return values
    }

    /// The command id of a single edit: the `Idempotency-Key` when sent (so a retry is
    /// recognised by the log as well), else a new one.
    var commandId: String {
        headers[.idempotencyKey].map { "key:\($0)" } ?? UUID().lowercasedText
    }
}
