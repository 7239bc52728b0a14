import CommonsAPI
import Foundation
import ServiceKit

// A donation history page is a list of these: each writes its own members (see
// `JSONWritable`), in the order and shape its synthesized `Encodable` gives under sorted keys.

extension Donation: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("amountMinor", amountMinor)
        object.member("currency", currency.rawValue)
        try object.member("donatedAt", donatedAt)
        object.member("id", id)
        if let message { object.member("message", message) }
        if let month { object.member("month", month) }
        try object.object("organization") { organization in
            organization.member("id", self.organization.id)
            organization.member("name", self.organization.name)
            organization.member("slug", self.organization.slug)
        }
        if let recurringId { object.member("recurringId", recurringId) }
        object.member("visibility", visibility.rawValue)
    }
}
