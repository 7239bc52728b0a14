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
    let digest = Array(SHA256.hash(data: Data("\(listing.key):\(requester.key)".utf8)))
    var bytes = Array(digest.prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                       bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
}

extension UUID {
    /// The lower-case text form used in stream names and read-model keys.
    var key: String { uuidString.lowercased() }
}
