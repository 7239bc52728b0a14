import CommonsAPI
import Foundation
import ServiceKit

// Feed pages are lists of listings: each writes its own members (see `JSONWritable`), in the
// order and shape its synthesized `Encodable` gives under sorted keys; a test holds the two
// equal for every shape a listing takes.

extension CommonsAPI.Listing: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try object.member("approximateLocation", approximateLocation)
        object.member("category", category.rawValue)
        object.member("condition", condition.rawValue)
        object.member("description", description)
        if let directionsURL { object.member("directionsURL", directionsURL) }
        if let expiresAt { try object.member("expiresAt", expiresAt) }
        object.member("free", free)
        object.member("id", id)
        object.member("imageIds", imageIds)
        try object.objects("images", images)
        object.member("ownerId", ownerId)
        if let pickupLocation { try object.member("pickupLocation", pickupLocation) }
        try object.member("pickupTimes", pickupTimes)
        try object.member("postedAt", postedAt)
        if let price { try object.member("price", price) }
        if let promisedTo { object.member("promisedTo", promisedTo) }
        object.member("status", status.rawValue)
        if let streetAddress { object.member("streetAddress", streetAddress) }
        object.member("title", title)
        object.member("version", version)
    }
}
