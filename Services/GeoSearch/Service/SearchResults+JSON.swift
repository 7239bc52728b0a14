import Foundation
import ServiceKit

// Result pages are lists of these: each writes its own members (see `JSONWritable`), in the
// order and shape its synthesized `Encodable` gives under sorted keys.

extension ListingResult: JSONWritable {
    package func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("category", category)
        object.member("description", description)
        object.member("directionsURL", directionsURL)
        if let distanceMeters { try object.member("distanceMeters", distanceMeters) }
        object.member("free", free)
        object.member("id", id)
        try object.member("lat", lat)
        try object.member("lon", lon)
        try object.member("postedAt", postedAt)
        if let price { try object.member("price", price) }
        object.member("status", status)
        object.member("title", title)
    }
}

extension OrganizationResult: JSONWritable {
    func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("acceptedCategories", acceptedCategories)
        if let address { object.member("address", address) }
        object.member("directionsURL", directionsURL)
        if let distanceMeters { try object.member("distanceMeters", distanceMeters) }
        object.member("id", id)
        object.member("kind", kind)
        try object.member("lat", lat)
        try object.member("lon", lon)
        object.member("name", name)
        object.member("slug", slug)
        object.member("tags", tags)
    }
}
