import Codecs
import Contracts
import Crypto
import EventLog
import Foundation

/// The streams the shopping-lists service writes, and ids derived from names.
enum ShoppingStreams {
    static func list(_ id: UUID) -> String { "list-\(id.lowercasedText)" }
    static func product(_ id: UUID) -> String { "product-\(id.lowercasedText)" }
    static func store(_ id: UUID) -> String { "store-\(id.lowercasedText)" }
    static func review(_ id: UUID) -> String { "review-\(id.lowercasedText)" }
    static func favorites(_ account: UUID) -> String { "favorites-\(account.lowercasedText)" }

    /// The one review a person can have of a product.
    static func reviewId(product: UUID, author: UUID) -> UUID {
        derivedId("review|\(product.lowercasedText)|\(author.lowercasedText)")
    }

    /// The id of the `index`th event that `actor`'s client command `commandId` appends to
    /// list `listId`: the same command sent again by the same person makes the same ids, so
    /// the log recognises it. Command ids are chosen by clients, so two members may pick the
    /// same one; the actor keeps their commands apart.
    static func eventId(list: UUID, actor: UUID, command commandId: String, index: Int) -> UUID {
        derivedId("list-command|\(list.lowercasedText)|\(actor.lowercasedText)|\(commandId)|\(index)")
    }

    /// The id of an item that `actor`'s client command `commandId` adds to list `listId`
    /// when the client named none: a retry adds the same item, other people's commands never do.
    static func itemId(list: UUID, actor: UUID, command commandId: String) -> UUID {
        derivedId("item|\(list.lowercasedText)|\(actor.lowercasedText)|\(commandId)")
    }

    /// A version-5-shaped UUID from the SHA-256 of `name`.
    static func derivedId(_ name: String) -> UUID {
        NameBasedID.make(name, version: .v5)
    }

    /// The decoded events of `stream`, oldest first, with their ids and the stream's version.
    static func load(_ stream: String, from store: any EventStore) async throws -> (events: [any EventContract], ids: Set<UUID>, version: Int64) {
        let recorded = try await store.read(stream: stream)
        return (try recorded.compactMap { try CommonsEvents.catalog.decode($0) }, Set(recorded.map(\.id)), recorded.last?.version ?? 0)
    }
}
