import Codecs
import Contracts
import Crypto
import EventLog
import Foundation

/// The listings service's streams, and loading them through the shared catalog.
enum ListingStreams {
    static func listing(_ id: UUID) -> String { "listing-\(id.key)" }
    static func requests(of listing: UUID) -> String { "listingrequests-\(listing.key)" }
    static func reports(of listing: UUID) -> String { "listingreports-\(listing.key)" }
    static func comments(of listing: UUID) -> String { "listingcomments-\(listing.key)" }
    static func conversation(_ id: UUID) -> String { "conversation-\(id.key)" }
    static func image(_ id: UUID) -> String { "image-\(id.key)" }

    /// The decoded events of `stream`, oldest first, with the stream's version.
    static func load(_ stream: String, from store: any EventStore) async throws -> (events: [any EventContract], version: Int64) {
        let recorded = try await store.read(stream: stream)
        return (try recorded.compactMap { try CommonsEvents.catalog.decode($0) }, recorded.last?.version ?? 0)
    }
}

/// The conversation between a listing's owner and one requester: a UUID made of the
/// SHA-256 of both ids, so both sides (and the projection) name it alike.
func conversationId(listing: UUID, requester: UUID) -> UUID {
    NameBasedID.make("\(listing.key):\(requester.key)", version: .v8)
}

extension UUID {
    /// The lower-case text form used in stream names and read-model keys.
    var key: String { uuidString.lowercased() }
}
