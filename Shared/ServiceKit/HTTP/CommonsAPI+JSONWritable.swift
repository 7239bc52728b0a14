import CommonsAPI
import Foundation

// The API's shared wire shapes write their own members, in the order and shape their
// synthesized `Encodable` gives under sorted keys; each service's tests hold the bytes equal.

extension Page: JSONWritable where Item: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try object.objects("items", items)
        if let nextCursor { object.member("nextCursor", nextCursor) }
    }
}

extension CommonsAPI.Money: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("amountMinor", amountMinor)
        object.member("currency", currency.rawValue)
    }
}

extension CommonsAPI.Coordinate: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try object.member("lat", lat)
        try object.member("lon", lon)
    }
}

extension ImageLinks: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("id", id)
        object.member("medium", medium)
        object.member("original", original)
        object.member("small", small)
    }
}

extension PickupTimes: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        if let note { object.member("note", note) }
        try object.objects("windows", windows) { window, element in
            try window.member("endsAt", element.endsAt)
            try window.member("startsAt", element.startsAt)
        }
    }
}

extension OrganizationHit: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        let categories: [String] = acceptedCategories.map(\.rawValue)
        object.member("acceptedCategories", categories)
        if let address { object.member("address", address) }
        object.member("directionsURL", directionsURL.absoluteString)
        if let distanceMeters { try object.member("distanceMeters", distanceMeters) }
        object.member("id", id)
        object.member("kind", kind.rawValue)
        try object.member("lat", lat)
        try object.member("lon", lon)
        object.member("name", name)
        object.member("slug", slug)
        object.member("tags", tags)
    }
}

extension ProblemDocument {
    /// The document of `problem`, to answer inside another answer.
    public init(_ problem: Problem) {
        self.init(
            type: problem.type, title: problem.title, status: problem.statusCode, detail: problem.detail, errors: problem.errors,
            extensions: problem.extensions)
    }
}
