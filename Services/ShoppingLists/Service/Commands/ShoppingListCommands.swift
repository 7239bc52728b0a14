import Contracts
import EventLog
import Foundation
import ServiceKit
import ShoppingListsDomain

/// One client command of a batch: its client-chosen id and what it asks.
package struct ClientCommand: Sendable {
    var commandId: String
    var command: ShoppingListCommand

    package init(commandId: String, command: ShoppingListCommand) {
        self.commandId = commandId
        self.command = command
    }
}

/// What became of one client command.
package enum CommandResult: Sendable {
    /// Applied now, or (`replayed`) by an earlier delivery of the same command.
    case applied(replayed: Bool)
    case rejected(ShoppingListError)
}

/// What a batch did: each command's result, and the stream after it.
package struct BatchOutcome: Sendable {
    package var results: [CommandResult]
    var state: ShoppingListState
    var version: Int64
    /// The checkpoint of the append; nil when nothing was appended.
    var position: Checkpoint?
}

/// The list commands, free of HTTP: load the list's stream, decide each command in order
/// with the domain, seal what people wrote, and append everything with the version seen.
/// When someone else appended in between, it reloads and decides again: because item
/// changes are deltas and set-to-value events, concurrent edits merge rather than overwrite.
package struct ShoppingListCommands: Sendable {
    let store: any EventStore
    let sealer: TextSealer
    /// Whether an account is known to be deleted (its lists are gone).
    let isDeletedAccount: @Sendable (UUID) async throws -> Bool

    package init(store: any EventStore, sealer: TextSealer, isDeletedAccount: @escaping @Sendable (UUID) async throws -> Bool) {
        self.store = store
        self.sealer = sealer
        self.isDeletedAccount = isDeletedAccount
    }

    static let maxAttempts = 30

    /// Runs `commands` by `actor` on list `listId`. Commands whose events are in the stream
    /// already (the same command id sent again) are reported as replayed and not redone.
    /// With `expectedVersion`, a list at another version fails with ``StaleVersion``.
    package func execute(
        _ commands: [ClientCommand], on listId: UUID, by actor: UUID, expectedVersion: Int64? = nil,
        metadata: EventMetadata
    ) async throws -> BatchOutcome {
        let stream = ShoppingStreams.list(listId)
        // A command sent again after its events went in is found in the ids and not redone.
        var ids: Set<UUID> = []
        return try await CommandHandler(store: store, attempts: Self.maxAttempts).handle(
            stream, ifMatch: expectedVersion, retryingTakenIds: true,
            load: {
                let (events, seen, version) = try await ShoppingStreams.load(stream, from: store)
                ids = seen
                return (ShoppingListState.replay(events.compactMap(ShoppingListChange.init)), version)
            }
        ) { state, version in
            var state = state
            if let owner = state.ownerId, try await isDeletedAccount(owner) { state.evolve(.deleted) }
            var results: [CommandResult] = []
            var batch: [NewEvent] = []
            for command in commands {
                if ids.contains(ShoppingStreams.eventId(list: listId, actor: actor, command: command.commandId, index: 0)) {
                    results.append(.applied(replayed: true))
                    continue
                }
                do {
                    let changes = try state.decide(command.command, by: actor)
                    for (index, change) in changes.enumerated() {
                        state.evolve(change)
                        let id = ShoppingStreams.eventId(list: listId, actor: actor, command: command.commandId, index: index)
                        batch.append(try EventCatalog.encode(try await event(for: change, list: listId, actor: actor), id: id, metadata: metadata))
                    }
                    results.append(.applied(replayed: false))
                } catch let error as ShoppingListError {
                    results.append(.rejected(error))
                }
            }
            guard !batch.isEmpty else { return .answer(BatchOutcome(results: results, state: state, version: version, position: nil)) }
            return .append(batch) { [state, results] appended in
                BatchOutcome(results: results, state: state, version: appended.streamVersion, position: appended.checkpoint)
            }
        }
    }

    /// The stored event of a change, with what people wrote sealed with the actor's key.
    private func event(for change: ShoppingListChange, list listId: UUID, actor: UUID) async throws -> any EventContract {
        switch change {
        case let .created(owner, name):
            return ShoppingListCreated(listId: listId, ownerId: owner, name: try await sealer.seal(name ?? "", for: actor))
        case .renamed(let name):
            return ShoppingListRenamed(listId: listId, name: try await sealer.seal(name ?? "", for: actor))
        case .deleted:
            return ShoppingListDeleted(listId: listId)
        case .memberAdded(let account):
            return ShoppingListMemberAdded(listId: listId, accountId: account)
        case let .memberRemoved(account, by):
            return ShoppingListMemberRemoved(listId: listId, accountId: account, removedBy: by)
        case let .itemAdded(draft, rank):
            return ShoppingListItemAdded(
                listId: listId, itemId: draft.itemId, authorId: draft.authorId, productId: draft.productId,
                text: try await sealOptional(draft.text, for: actor), quantity: draft.quantity,
                note: try await sealOptional(draft.note, for: actor), rank: rank)
        case let .quantityChanged(itemId, delta):
            return ShoppingListItemQuantityChanged(listId: listId, itemId: itemId, delta: delta)
        case let .checkSet(itemId, checked):
            return ShoppingListItemCheckSet(listId: listId, itemId: itemId, checked: checked)
        case let .noteSet(itemId, note):
            return ShoppingListItemNoteSet(listId: listId, itemId: itemId, authorId: actor, note: try await sealOptional(note, for: actor))
        case let .moved(itemId, rank):
            return ShoppingListItemMoved(listId: listId, itemId: itemId, rank: rank)
        case .itemRemoved(let itemId):
            return ShoppingListItemRemoved(listId: listId, itemId: itemId)
        }
    }

    private func sealOptional(_ text: String?, for owner: UUID) async throws -> Sealed? {
        guard let text else { return nil }
        return try await sealer.seal(text, for: owner)
    }
}
