import Codecs
import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    /// How long a quiet stream waits before a keep-alive comment.
    static let keepAliveInterval = Duration.seconds(15)

    func addLiveRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/lists/{id}/events") { request, context in
            let identity = try context.requireIdentity()
            let listId = try context.parameters.uuid("id")
            let resumeAfter = try Self.version(request.lastEventID, field: "Last-Event-ID")
            let until = try Self.version(request.queryValues["until"], field: "until")
            // Membership is checked on the write side's own record, before anything is sent.
            guard try await watchable(listId, by: identity.accountId) else { throw ShoppingListError.listNotFound }
            let store = runtime.store
            let stream = ShoppingStreams.list(listId)
            return try await runtime.sessionEvents(for: identity, connection: context.connection) { sink in
                var sent = resumeAfter ?? 0
                // A new stream starts from the list as it is now; a resumed one sends what it missed.
                if resumeAfter == nil, let snapshot = try await snapshot(listId, for: identity.accountId) {
                    try await sink.send(try .json(snapshot, id: String(snapshot.version), name: "snapshot"))
                    sent = snapshot.version
                }
                // Read after the snapshot, so the watch knows every change up to it and beyond.
                let history = try await store.read(stream: stream)
                var watch = ListWatch(
                    state: .replay(try history.compactMap { try CommonsEvents.catalog.decode($0).flatMap(ShoppingListChange.init) }),
                    watcher: identity.accountId)
                var stateVersion = history.last?.version ?? 0
                var quietSince = ContinuousClock.now
                while sink.isOpen {
                    if let until, sent >= until { return }
                    let seen = store.changes.generation
                    let fresh = try await store.read(stream: stream, from: sent + 1, direction: .forwards, limit: 500)
                    // A reader per batch: keys are not remembered past it, so a deletion meanwhile is honoured.
                    let reader = sealer.reader()
                    for recorded in fresh {
                        guard let event = try CommonsEvents.catalog.decode(recorded) else { continue }
                        if recorded.version > stateVersion {
                            // Checked per event, not per read: a removal and what follows it can arrive together.
                            guard watch.admit(ShoppingListChange(event)) else { return }
                            stateVersion = recorded.version
                        }
                        try await sink.send(
                            try .json(try await changeView(event, recorded, reader: reader), id: String(recorded.version), name: "change"))
                        sent = recorded.version
                        quietSince = ContinuousClock.now
                        if let until, sent >= until { return }
                    }
                    // A member who left or was removed, or a deleted list, ends the stream once it is sent.
                    if sent >= stateVersion, watch.isOver { return }
                    if !fresh.isEmpty { continue }
                    if ContinuousClock.now - quietSince >= Self.keepAliveInterval {
                        try await sink.keepAlive()
                        quietSince = ContinuousClock.now
                    }
                    await store.changes.wait(after: seen, timeout: store.pollInterval)
                }
            }
        }
    }

    /// The list as `account` sees it now, from the read model once it has applied the list's
    /// last event (waiting at most as long as for `Commons-Min-Position`); nil when the read model does not show the
    /// list to them yet, and the stream then starts from the list's first change.
    private func snapshot(_ listId: UUID, for account: UUID) async throws -> ShoppingList? {
        if let last = try await runtime.store.read(stream: ShoppingStreams.list(listId), from: nil, direction: .backwards, limit: 1).first {
            _ = await runtime.waitUntilApplied(last.checkpoint, timeout: runtime.configuration.readYourWritesPatience)
        }
        guard let stored = try await read({ db in try ListQueries.list(listId, for: account, in: db) }) else { return nil }
        return try await view(stored, for: account, reader: sealer.reader())
    }

    /// Whether `account` may watch the list now.
    private func watchable(_ listId: UUID, by account: UUID) async throws -> Bool {
        let (events, _, _) = try await ShoppingStreams.load(ShoppingStreams.list(listId), from: runtime.store)
        let state = ShoppingListState.replay(events.compactMap(ShoppingListChange.init))
        guard let owner = state.ownerId, state.isMember(account) else { return false }
        return try await !read { db in try ProductQueries.isDeletedAccount(owner, in: db) }
    }

    /// A stream version from a header or parameter, 0 to `Int64.max - 1`; 400 when it is not one.
    static func version(_ text: String?, field: String) throws -> Int64? {
        guard let text else { return nil }
        // The stream reads on from `version + 1`, which must not overflow (issue 21).
        guard let version = Int64(text.trimmingWhitespace()), (0..<Int64.max).contains(version) else {
            throw Problem.malformed("\(field) must be the id of an event this stream sent.", errors: [field: ["is not an event id of this list"]])
        }
        return version
    }

    private func changeView(_ event: any EventContract, _ recorded: RecordedEvent, reader: SealedTextReader) async throws -> ListChange {
        var view = ListChange(version: recorded.version, type: recorded.type, at: recorded.recordedAt, by: recorded.metadata.actorId)
        switch event {
        case let created as ShoppingListCreated:
            view.accountId = created.ownerId
            view.name = try await reader.open(created.name)
        case let renamed as ShoppingListRenamed: view.name = try await reader.open(renamed.name)
        case let added as ShoppingListMemberAdded: view.accountId = added.accountId
        case let removed as ShoppingListMemberRemoved: view.accountId = removed.accountId
        case let added as ShoppingListItemAdded:
            view.itemId = added.itemId
            view.productId = added.productId
            view.text = try await reader.open(added.text)
            view.note = try await reader.open(added.note)
            view.quantity = added.quantity
            view.rank = added.rank
        case let changed as ShoppingListItemQuantityChanged:
            view.itemId = changed.itemId
            view.delta = changed.delta
        case let checked as ShoppingListItemCheckSet:
            view.itemId = checked.itemId
            view.checked = checked.checked
        case let noted as ShoppingListItemNoteSet:
            view.itemId = noted.itemId
            view.note = try await reader.open(noted.note)
        case let moved as ShoppingListItemMoved:
            view.itemId = moved.itemId
            view.rank = moved.rank
        case let removed as ShoppingListItemRemoved: view.itemId = removed.itemId
        default: break
        }
        return view
    }
}
