import Foundation
import ServiceKit

// Result pages are lists of these: each writes its own members (see `JSONWritable`), in the
// order and shape its synthesized `Encodable` gives under sorted keys.

extension ListingResult: JSONWritable {
    package func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        if let written = writtenMembers { object.members(written.leading) } else { writeLeadingMembers(&object) }
        if let distanceMeters { try object.member("distanceMeters", distanceMeters) }
        if let written = writtenMembers { object.members(written.trailing) } else { try writeTrailingMembers(&object) }
    }

    /// The members before the distance.
    private func writeLeadingMembers(_ object: inout JSONObjectWriter) {
        object.member("category", category)
        object.member("description", description)
        object.member("directionsURL", directionsURL)
    }

    /// The members after the distance.
    private func writeTrailingMembers(_ object: inout JSONObjectWriter) throws {
        object.member("free", free)
        object.member("id", id)
        try object.member("lat", lat)
        try object.member("lon", lon)
        try object.member("postedAt", postedAt)
        if let price { try object.member("price", price) }
        object.member("status", status)
        object.member("title", title)
    }

    /// The result with every member but the distance written once, for one kept in memory
    /// and written into many pages: the same bytes, copied instead of written each time.
    func rendered() throws -> ListingResult {
        var copy = self
        copy.writtenMembers = RenderedMembers(leading: try JSONMembers { writeLeadingMembers(&$0) },
                                        trailing: try JSONMembers { try writeTrailingMembers(&$0) })
        return copy
    }
}

/// A listing result's members, written once (see ``ListingResult/rendered()``).
struct RenderedMembers: Sendable {
    var leading: JSONMembers
    var trailing: JSONMembers
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
