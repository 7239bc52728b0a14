import Contracts
import EventLog
import Foundation
import GRDB
import ListingsDomain
import ListingsService
import ReadModel
import ServiceKit

/// The pieces of the listings service that `commons bench listings` uses: a read model
/// filled with many listings, and the ceiling its feed is measured against.
public enum ListingsBenchmark {
    static let adjectives = ["blue", "oak", "vintage", "small", "large", "red", "wooden", "modern", "retro", "green", "folding", "soft"]
    static let things = [
        "chair", "table", "lamp", "sofa", "bicycle", "jacket", "kettle", "bookcase", "toaster", "stroller", "desk", "rug",
        "mirror", "puzzle", "novel", "guitar",
    ]

    /// Fills the read model `listings` in `directory` with `count` listings around
    /// Amsterdam, applied through the service's own projection (as a replay would), in
    /// batches of 5,000 per transaction. Titles are two words from small vocabularies, so a
    /// one-word search matches about one listing in twelve.
    public static func fill(directory: URL, count: Int, progress: (Int) -> Void = { _ in }) async throws {
        guard let projection = ListingsService.projections.first(where: { $0.name == "listings.listings" }) else { return }
        let database = try ReadModelDatabase(
            directory: directory, name: ListingsService.name, projections: [RevocationProjection()] + ListingsService.projections)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var generator = SystemRandomNumberGenerator()
        var position: Int64 = 0
        func recorded(_ event: some EventContract, stream: String, version: Int64, at: Date) throws -> RecordedEvent {
            position += 1
            return RecordedEvent(
                checkpoint: Checkpoint(transaction: 0, position: position), stream: stream, version: version, id: UUID(),
                type: type(of: event).eventType, schemaVersion: 1, data: try EventJSON.encoder().encode(event),
                metadata: EventMetadata(service: "bench"), recordedAt: at)
        }
        for batchStart in stride(from: 0, to: count, by: 5_000) {
            var events: [RecordedEvent] = []
            for index in batchStart..<min(count, batchStart + 5_000) {
                let id = UUID()
                let stream = "listing-\(id.lowercasedText)"
                let at = start.addingTimeInterval(Double(index))
                let title = "\(adjectives.randomElement(using: &generator)!) \(things.randomElement(using: &generator)!)"
                let price = index % 3 == 0 ? nil : Money(amountMinor: Int.random(in: 100...50_000, using: &generator), currency: "EUR")
                let point = Coordinate(
                    lat: 52.37 + Double.random(in: -0.05...0.05, using: &generator),
                    lon: 4.89 + Double.random(in: -0.08...0.08, using: &generator))
                events.append(
                    try recorded(
                        ListingPosted(
                            listingId: id, ownerId: UUID(), title: title.capitalized,
                            description: "A \(title) in \(["good", "fair", "new"][index % 3]) condition, pick up any evening.",
                            category: ListingCategory.allCases[index % ListingCategory.allCases.count].rawValue,
                            price: price, publicLocation: point, postedAt: at), stream: stream, version: 1, at: at))
                events.append(
                    try recorded(
                        ListingDetailsSet(listingId: id, condition: "good", pickupTimes: PickupTimes(note: "evenings"), imageIds: []),
                        stream: stream, version: 2, at: at))
                events.append(
                    try recorded(
                        ListingExpirySet(listingId: id, expiresAt: Date().addingTimeInterval(365 * 86_400), renewed: false, setAt: at),
                        stream: stream, version: 3, at: at))
            }
            let batch = events
            try await database.pool.write { db in
                for event in batch { try projection.apply(event, in: db) }
            }
            progress(min(count, batchStart + 5_000))
        }
    }

    /// The ceiling of a feed request: the same SQL the feed runs for `parameters`, through
    /// GRDB on the same file, fetching the rows and nothing more (no HTTP, no JSON).
    public static func rawFeedQuery(directory: URL, parameters: [String: String]) throws -> @Sendable () async throws -> Int {
        let pool = try DatabasePool(path: directory.appendingPathComponent("\(ListingsService.name).sqlite").path)
        let query = try ListingsAPI.feedQuery(parameters)
        let now = Date()
        return {
            let count = try await pool.read { db in try FeedQueries.page(query, caller: nil, now: now, in: db).rows.count }
            return count > 0 ? 1 : 0
        }
    }
}
