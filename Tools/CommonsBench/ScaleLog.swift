import Codecs
import Contracts
import EventLog
import Foundation
import Geo

/// The log of `commons bench snapshot`: listings over the metro area of
/// ``GeoSearchBenchmark``, with what happens to listings over their life in proportions
/// like a running community's. Of every 1,000 events: 400 posts, 300 edits, 250 status
/// changes (promised, given, available again), 49 withdrawals and one account deletion,
/// which takes every listing of its owner with it.
public enum ScaleLog {
    /// What a filled log holds.
    public struct Summary: Sendable {
        public var events = 0
        public var posted = 0
        public var deletedAccounts = 0
    }

    /// People who post, one for every ten events: each posts about four listings.
    static func owners(for count: Int) -> Int { max(100, count / 10) }

    /// Adds `count` events to an empty log, as an import (the log's fastest path), 10,000 a
    /// batch; `progress` hears the events written so far after each batch.
    public static func fill(_ store: any EventStore, count: Int, progress: @Sendable (Int) -> Void) async throws -> Summary {
        var random = SystemRandomNumberGenerator()
        var ownerIds = (0..<owners(for: count)).map { _ in UUID() }
        // Every listing not yet withdrawn, with its stream's version and owner; a listing of a
        // deleted owner leaves it when it is next picked.
        var live: [(id: UUID, version: Int64, owner: UUID)] = []
        var deletedOwners: Set<UUID> = []
        var position = (try await store.head()).position
        var summary = Summary()
        let start = Date().addingTimeInterval(-10 * 86_400)
        while summary.events < count {
            var batch: [RecordedEvent] = []
            for _ in 0..<min(10_000, count - summary.events) {
                let at = start.addingTimeInterval(Double(summary.events) * 0.05)
                let roll = Int.random(in: 0..<1_000, using: &random)
                let stream: String
                let version: Int64
                let event: NewEvent
                if roll < 400 || live.isEmpty {
                    let id = UUID()
                    let owner = ownerIds[Int.random(in: 0..<ownerIds.count, using: &random)]
                    let point = GeoSearchBenchmark.metroPoint(Double.random(in: 0..<1, using: &random), Double.random(in: 0..<1, using: &random))
                    let publicPoint = PublicLocation(listingId: id, exact: GeoCoordinate(lat: point.lat, lon: point.lon)!).point
                    event = try EventCatalog.encode(
                        ListingPosted(
                            listingId: id, ownerId: owner, title: "Listing \(summary.posted)",
                            description: "Something to give away, number \(summary.posted)",
                            category: GeoSearchBenchmark.categories[summary.posted % GeoSearchBenchmark.categories.count], price: nil,
                            publicLocation: Coordinate(lat: publicPoint.lat, lon: publicPoint.lon), postedAt: at))
                    (stream, version) = ("listing-\(id.lowercasedText)", 1)
                    live.append((id, 1, owner))
                    summary.posted += 1
                } else if roll == 999 {
                    let slot = Int.random(in: 0..<ownerIds.count, using: &random)
                    let owner = ownerIds[slot]
                    event = try EventCatalog.encode(AccountDeleted(accountId: owner, deletedAt: at))
                    (stream, version) = ("account-\(owner.lowercasedText)", 1)
                    deletedOwners.insert(owner)
                    // Someone new takes the place: a deleted person's id posts no more.
                    ownerIds[slot] = UUID()
                    summary.deletedAccounts += 1
                } else {
                    var index = Int.random(in: 0..<live.count, using: &random)
                    while deletedOwners.contains(live[index].owner), live.count > 1 {
                        live.swapAt(index, live.count - 1)
                        live.removeLast()
                        index = Int.random(in: 0..<live.count, using: &random)
                    }
                    let listing = live[index]
                    let next = listing.version + 1
                    if roll < 700 {
                        let point = GeoSearchBenchmark.metroPoint(Double.random(in: 0..<1, using: &random), Double.random(in: 0..<1, using: &random))
                        let publicPoint = PublicLocation(listingId: listing.id, exact: GeoCoordinate(lat: point.lat, lon: point.lon)!).point
                        event = try EventCatalog.encode(
                            ListingEdited(
                                listingId: listing.id, title: "Listing edited at \(summary.events)", description: "Still here, now described anew",
                                category: GeoSearchBenchmark.categories[Int.random(in: 0..<9, using: &random)], price: nil,
                                publicLocation: Coordinate(lat: publicPoint.lat, lon: publicPoint.lon)))
                        live[index].version = next
                    } else if roll < 950 {
                        let status: ListingStatus = [.promised, .given, .available][Int.random(in: 0..<3, using: &random)]
                        event = try EventCatalog.encode(ListingStatusChanged(listingId: listing.id, status: status))
                        live[index].version = next
                    } else {
                        event = try EventCatalog.encode(ListingStatusChanged(listingId: listing.id, status: .withdrawn))
                        live.swapAt(index, live.count - 1)
                        live.removeLast()
                    }
                    (stream, version) = ("listing-\(listing.id.lowercasedText)", next)
                }
                position += 1
                batch.append(
                    RecordedEvent(
                        checkpoint: Checkpoint(transaction: UInt64(position), position: position), stream: stream, version: version,
                        id: event.id, type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata,
                        recordedAt: at))
                summary.events += 1
            }
            _ = try await store.importEvents(batch)
            progress(summary.events)
        }
        return summary
    }
}
