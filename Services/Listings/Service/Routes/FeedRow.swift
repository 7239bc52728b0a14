import Codecs
import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// One row of the `listings` table, as the feed reads it.
package struct FeedRow: Sendable {
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

    /// The sort keys a cursor is made of, as stored: `posted_at` (whole and exact, where a
    /// `Date` would shift it by its own epoch), `sort_price` and the search's `score`.
    var postedAtSeconds: Double
    var sortPrice: Int64
    var score: Double

    /// The row `columns` stands on, selected as ``columns`` and then the score.
    init(_ columns: borrowing SQLiteColumns) {
        seq = columns.int64(0)
        id = columns.uuid(1) ?? UUID()
        ownerId = columns.uuid(2) ?? UUID()
        title = columns.text(3)
        description = columns.text(4)
        category = columns.text(5)
        condition = columns.text(6)
        if let amount = columns.optionalInt64(7), let currency = columns.optionalText(8) {
            price = Money(amountMinor: Int(amount), currency: currency)
        }
        sortPrice = columns.int64(9)
        status = ListingStatus(rawValue: columns.text(10)) ?? .hidden
        location = Coordinate(lat: columns.double(11), lon: columns.double(12))
        imageIds = StoredListingJSON.imageIds(columns.text(13))
        pickupTimes = StoredListingJSON.pickupTimes(columns.text(14))
        postedAtSeconds = columns.double(15)
        postedAt = Date(timeIntervalSince1970: postedAtSeconds)
        expiresAt = columns.optionalDouble(16).map(Date.init(timeIntervalSince1970:))
        version = columns.int64(17)
        score = columns.double(18)
    }
}
