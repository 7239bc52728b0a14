import EventLog
import Foundation

/// Read without `JSONDecoder` when plain (see ``PlainJSONReadable``): a rebuild of geo-search
/// or listings reads one per listing ever posted.
extension ListingPosted: PlainJSONReadable {
    public init?(reading reader: inout PlainJSONReader) {
        var listingId: UUID?, ownerId: UUID?, category: String?, location: Coordinate?, postedAt: Date?
        // Optional members: `.some(nil)` once read as null.
        var title: String??, description: String??, text: Sealed??, price: Money??
        let read = reader.object { key, reader in
            switch key {
            case _ where key.holds("listingId"): reader.fill(&listingId) { $0.uuid() }
            case _ where key.holds("ownerId"): reader.fill(&ownerId) { $0.uuid() }
            case _ where key.holds("category"): reader.fill(&category) { $0.string() }
            case _ where key.holds("publicLocation"): reader.fill(&location) { Coordinate(reading: &$0) }
            case _ where key.holds("postedAt"): reader.fill(&postedAt) { $0.wholeSecondDate() }
            case _ where key.holds("title"): reader.fill(&title) { $0.optional { $0.string() } }
            case _ where key.holds("description"): reader.fill(&description) { $0.optional { $0.string() } }
            case _ where key.holds("text"): reader.fill(&text) { $0.optional { Sealed(reading: &$0) } }
            case _ where key.holds("price"): reader.fill(&price) { $0.optional { Money(reading: &$0) } }
            default: false
            }
        }
        guard read, let listingId, let ownerId, let category, let location, let postedAt else { return nil }
        self.init(
            listingId: listingId, ownerId: ownerId, title: title ?? nil, description: description ?? nil, text: text ?? nil,
            category: category, price: price ?? nil, publicLocation: location, postedAt: postedAt)
    }
}
