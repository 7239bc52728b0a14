import EventLog
import Foundation

// Schema 1 of `ListingPosted` and `ListingEdited` is the form shipped first: the listing's
// title and description in clear. The sealed form (`text`, sealed with the owner's key) was
// also written as schema 1 for a while before schema 2 was declared, so a schema-1 body holds
// either. Schema 2 is the sealed form; both schema-1 forms are upcast to the current type.

extension ListingPosted {
    public static let schemaVersion = 2

    /// Schema 1 as stored: the text in clear, or sealed.
    struct Version1: Decodable {
        var listingId: UUID
        var ownerId: UUID
        var title: String?
        var description: String?
        var text: Sealed?
        var category: String
        var price: Money?
        var publicLocation: Coordinate
        var postedAt: Date
    }

    static let upcasters: [Upcaster<ListingPosted>] = [
        .from(version: 1, as: Version1.self) { old in
            ListingPosted(
                listingId: old.listingId, ownerId: old.ownerId, title: old.title, description: old.description, text: old.text,
                category: old.category, price: old.price, publicLocation: old.publicLocation, postedAt: old.postedAt)
        }
    ]
}

extension ListingEdited {
    public static let schemaVersion = 2

    /// Schema 1 as stored: the text in clear, or sealed.
    struct Version1: Decodable {
        var listingId: UUID
        var title: String?
        var description: String?
        var text: Sealed?
        var category: String
        var price: Money?
        var publicLocation: Coordinate
    }

    static let upcasters: [Upcaster<ListingEdited>] = [
        .from(version: 1, as: Version1.self) { old in
            ListingEdited(
                listingId: old.listingId, title: old.title, description: old.description, text: old.text, category: old.category,
                price: old.price, publicLocation: old.publicLocation)
        }
    ]
}
