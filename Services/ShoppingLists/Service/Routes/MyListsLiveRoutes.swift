import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    /// The list-level events my lists' stream reads from the log; item edits are left out.
    static let listLevelTypes: Set<String> = [
        ShoppingListCreated.eventType, ShoppingListRenamed.eventType, ShoppingListDeleted.eventType,
        ShoppingListMemberAdded.eventType, ShoppingListMemberRemoved.eventType,
    ]

    /// `GET /v1/lists/events`: changes to the caller's lists as server-sent events (`event: list`,
    /// the change's checkpoint as its id). Without `Last-Event-ID` it starts at the log's head
    /// with a `ready` event naming it, so a client reads its lists at that position and misses nothing.
    func addMyListsLiveRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/lists/events") { request, context in
            let identity = try context.requireIdentity()
            let resumeFrom = try request.lastEventID.map { text in
                guard let checkpoint = Checkpoint(text.trimmingWhitespace()) else {
                    throw Problem.malformed("Last-Event-ID is not an id this stream sent.", errors: ["Last-Event-ID": ["is not a change id"]])
                }
                return checkpoint
            }
            let store = runtime.store
            let start: Checkpoint
            if let resumeFrom { start = resumeFrom } else { start = try await store.head() }
            return try await runtime.sessionEvents(for: identity, connection: context.connection) { sink in
                if resumeFrom == nil {
                    try await sink.send(try .json(LiveStreamStart(position: start.description), id: start.description, name: "ready"))
                }
                var after = start
                var watch = MyListsWatch(watcher: identity.accountId)
                var quietSince = ContinuousClock.now
                let filter = EventFilter(categories: ["list"], types: Self.listLevelTypes)
                while sink.isOpen {
                    let seen = store.changes.generation
                    let page = try await store.readAll(after: after, limit: 200, filter: filter)
                    let reader = sealer.reader()
                    for recorded in page.events {
                        if let change = try await myListChange(recorded, for: &watch, reader: reader) {
                            try await sink.send(try .json(change, id: recorded.checkpoint.description, name: "list"))
                            quietSince = ContinuousClock.now
                        }
                    }
                    after = page.checkpoint
                    if !page.reachedHead { continue }
                    if ContinuousClock.now - quietSince >= Self.keepAliveInterval {
                        try await sink.keepAlive()
                        quietSince = ContinuousClock.now
                    }
                    await store.changes.wait(after: seen, timeout: store.pollInterval)
                }
            }
        }
    }

    /// The change `recorded` makes to one of the watcher's lists, or nil when it is not theirs.
    private func myListChange(_ recorded: RecordedEvent, for watch: inout MyListsWatch, reader: SealedTextReader) async throws -> MyListChange? {
        guard let event = try CommonsEvents.catalog.decode(recorded), let change = ShoppingListChange(event),
            let listId = UUID(uuidString: String(recorded.stream.dropFirst("list-".count)))
        else { return nil }
        if !watch.knows(listId), recorded.version > 1 {
            // First seen mid-way: the list as it was just before, from its own stream.
            let earlier = try await runtime.store.read(stream: recorded.stream, from: 1, direction: .forwards, limit: Int(recorded.version - 1))
            watch.learn(listId, before: .replay(try earlier.compactMap { try CommonsEvents.catalog.decode($0).flatMap(ShoppingListChange.init) }))
        }
        guard watch.admit(change, of: listId) else { return nil }
        var view = MyListChange(
            listId: listId, type: recorded.type, version: recorded.version, at: recorded.recordedAt, by: recorded.metadata.actorId,
            position: recorded.checkpoint.description)
        switch event {
        case let created as ShoppingListCreated: view.name = try await reader.open(created.name)
        case let renamed as ShoppingListRenamed: view.name = try await reader.open(renamed.name)
        case let added as ShoppingListMemberAdded: view.accountId = added.accountId
        case let removed as ShoppingListMemberRemoved: view.accountId = removed.accountId
        default: break
        }
        return view
    }
}
