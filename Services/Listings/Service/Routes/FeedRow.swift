import Codecs
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

    /// The columns ``init(_:)`` reads, in the order it reads them: by position, as looking
    /// each up by name costs more than the rest of the row (issue 17).
    static let columns = """
        listings.seq AS seq, listing_id, owner_id, listings.title AS title, listings.description AS description, category, condition,
        price_minor, price_currency, sort_price, status, lat, lon, image_ids, pickup_times, posted_at, expires_at, version
        """

    init(_ row: Row) {
        seq = row[0]
        id = UUID(text: row[1]) ?? UUID()
        ownerId = UUID(text: row[2]) ?? UUID()
        title = row[3]
        description = row[4]
        category = row[5]
        condition = row[6]
        if let amount = row[7] as Int?, let currency = row[8] as String? {
            price = Money(amountMinor: amount, currency: currency)
        }
        status = ListingStatus(rawValue: row[10]) ?? .hidden
        location = Coordinate(lat: row[11], lon: row[12])
        imageIds = StoredListingJSON.imageIds(row[13])
        pickupTimes = StoredListingJSON.pickupTimes(row[14])
        postedAt = Date(timeIntervalSince1970: row[15])
        expiresAt = (row[16] as Double?).map(Date.init(timeIntervalSince1970:))
        version = row[17]
    }
}
