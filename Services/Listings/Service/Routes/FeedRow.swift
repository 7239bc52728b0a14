import Contracts
import EventLog
import Foundation
import GRDB

/// One row of the `listings` table, as the feed reads it.
struct FeedRow: Sendable {
    var seq: Int64
    var id: UUID
    var ownerId: UUID
    var title: String
    var description: String
    var category: String
    var condition: String
    var price: Money?
    var status: ListingStatus
    var location: Coordinate
    var imageIds: [UUID]
    var pickupTimes: PickupTimes
    var postedAt: Date
    var expiresAt: Date?
    var version: Int64

    /// The columns ``init(_:)`` reads.
    static let columns = """
        listings.seq AS seq, listing_id, owner_id, listings.title AS title, listings.description AS description, category, condition,
        price_minor, price_currency, sort_price, status, lat, lon, image_ids, pickup_times, posted_at, expires_at, version
        """

    init(_ row: Row) {
        seq = row["seq"]
        id = UUID(uuidString: row["listing_id"]) ?? UUID()
        ownerId = UUID(uuidString: row["owner_id"]) ?? UUID()
        title = row["title"]
        description = row["description"]
        category = row["category"]
        condition = row["condition"]
        if let amount = row["price_minor"] as Int?, let currency = row["price_currency"] as String? {
            price = Money(amountMinor: amount, currency: currency)
        }
        status = ListingStatus(rawValue: row["status"]) ?? .hidden
        location = Coordinate(lat: row["lat"], lon: row["lon"])
        imageIds = (try? JSONDecoder().decode([UUID].self, from: Data((row["image_ids"] as String).utf8))) ?? []
        pickupTimes = (try? EventJSON.decoder().decode(PickupTimes.self, from: Data((row["pickup_times"] as String).utf8))) ?? PickupTimes()
        postedAt = Date(timeIntervalSince1970: row["posted_at"])
        expiresAt = (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        version = row["version"]
    }
}
