import Foundation
import ServiceKit

// Result pages are lists of these: each writes its own members (see `JSONWritable`), in the
// order and shape its synthesized `Encodable` gives under sorted keys.

extension ListingResult: JSONWritable {
    package func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try writeJSONMembers(&object, distanceMeters: distanceMeters)
    }

    /// The members, with `distanceMeters` in place of the result's own.
    func writeJSONMembers(_ object: inout JSONObjectWriter, distanceMeters: Double?) throws {
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
        if let image { try object.member("image", image) }
        try object.member("lat", lat)
        try object.member("lon", lon)
        if let pickupTimes { try object.member("pickupTimes", pickupTimes) }
        try object.member("postedAt", postedAt)
        if let price { try object.member("price", price) }
        object.member("status", status)
        object.member("title", title)
    }

    /// The result with every member but the distance written once, for one kept in memory
    /// and written into many pages: the same bytes, copied instead of written each time.
    func rendered() throws -> ListingResult {
        var copy = self
        copy.writtenMembers = RenderedMembers(
            leading: try JSONMembers { writeLeadingMembers(&$0) },
            trailing: try JSONMembers { try writeTrailingMembers(&$0) })
        return copy
    }
}

/// A listing result's members, written once (see ``ListingResult/rendered()``).
struct RenderedMembers: Sendable {
    var leading: JSONMembers
    var trailing: JSONMembers
}

/// A listing a search found: read from SQLite, or kept in memory with this search's distance
/// (a reference and a number, cheap to sort and copy into a page); written as the same
/// ``ListingResult`` either way.
package enum FoundListing: Encodable, JSONWritable, Sendable {
    case read(ListingResult)
    case kept(ListingPlaces.Place, distanceMeters: Double)

    package var id: UUID {
        switch self {
        case .read(let result): result.id
        case .kept(let place, _): place.result.id
        }
    }

    /// The result it stands for.
    package var result: ListingResult {
        switch self {
        case .read(let result): return result
        case .kept(let place, let distance):
            var result = place.result
            result.distanceMeters = distance
            return result
        }
    }

    package func encode(to encoder: any Encoder) throws { try result.encode(to: encoder) }

    package func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        switch self {
        case .read(let result): try result.writeJSONMembers(&object)
        case .kept(let place, let distance): try place.result.writeJSONMembers(&object, distanceMeters: distance)
        }
    }
}
