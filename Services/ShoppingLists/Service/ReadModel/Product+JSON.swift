import CommonsAPI
import Foundation
import ServiceKit

// Products answer as CommonsAPI's `Product`, the SDK's type. A product search page is a list
// of these: each writes its own members (see `JSONWritable`), in the order and shape its
// synthesized `Encodable` gives under sorted keys.

extension Product: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        if let averageRating { try object.member("averageRating", averageRating) }
        object.member("brand", brand)
        object.member("caloriesPerUnit", caloriesPerUnit)
        object.member("category", category)
        if let cheapestPrice { try object.member("cheapestPrice", cheapestPrice) }
        object.member("id", id)
        if let image { object.member("image", image) }
        object.member("name", name)
        object.member("reviewCount", reviewCount)
        object.member("unit", unit)
    }
}
