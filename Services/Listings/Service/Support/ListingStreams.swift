import Codecs
import Contracts
import Crypto
import EventLog
import Foundation

/// The listings service's streams, and loading them through the shared catalog.
enum ListingStreams {
    static func listing(_ id: UUID) -> String { "listing-\(id.lowercasedText)" }
    static func requests(of listing: UUID) -> String { "listingrequests-\(listing.lowercasedText)" }
    static func reports(of listing: UUID) -> String { "listingreports-\(listing.lowercasedText)" }
    static func comments(of listing: UUID) -> String { "listingcomments-\(listing.lowercasedText)" }
    static func conversation(_ id: UUID) -> String { "conversation-\(id.lowercasedText)" }
    /// An account's stream, which the accounts service begins with `AccountRegistered`: read
    /// for how long a reporter has been around.
    static func account(_ id: UUID) -> String { "account-\(id.lowercasedText)" }

    /// The decoded events of `stream`, oldest first, with the stream's version.
    static func load(_ stream: String, from store: any EventStore) async throws -> (events: [any EventContract], version: Int64) {
        let recorded = try await store.read(stream: stream)
        return (try recorded.compactMap { try CommonsEvents.catalog.decode($0) }, recorded.last?.version ?? 0)
    }
}

/// The conversation between a listing's owner and one requester: a UUID made of the
/// SHA-256 of both ids, so both sides (and the projection) name it alike.
func conversationId(listing: UUID, requester: UUID) -> UUID {
    NameBasedID.make("\(listing.lowercasedText):\(requester.lowercasedText)", version: .v8)
}
