import Codecs
import Contracts
import EventLog
import Foundation
import Geo
import GeoSearchDomain
import ServiceKit

/// Reads the query fields that geo-search adds to the domain's `NearbyQuery` and `AreaQuery`
/// (filters, sort, limit, cursor, count), collecting every problem at once.
struct QueryParameters {
    let raw: [String: String]
    private(set) var problems: [String: [String]] = [:]

    init(_ raw: [String: String]) { self.raw = raw }

    mutating func report(_ problem: String, for field: String) { problems[field, default: []].append(problem) }

    mutating func merge(_ error: GeoSearchError) {
        switch error {
        case .invalid(let errors): problems.merge(errors) { $0 + $1 }
        }
    }

    /// The field without surrounding spaces; nil when absent or blank.
    func text(_ field: String) -> String? {
        guard let value = raw[field]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return value
    }

    /// A short free-text value (a category, a tag).
    mutating func label(_ field: String) -> String? {
        guard let value = text(field) else { return nil }
        guard value.count <= 100 else { report("must be at most 100 characters", for: field); return nil }
        return value
    }

    mutating func bool(_ field: String) -> Bool? {
        guard let value = text(field) else { return nil }
        switch value.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: report("must be true or false", for: field); return nil
        }
    }

    mutating func choice<T: RawRepresentable>(_ field: String, of allowed: [T], default fallback: T) -> T where T.RawValue == String {
        guard let value = text(field) else { return fallback }
        if let match = allowed.first(where: { $0.rawValue == value.lowercased() }) { return match }
        report("must be one of \(allowed.map(\.rawValue).joined(separator: ", "))", for: field)
        return fallback
    }

    /// `limit`: 1...100, default 20.
    mutating func limit() -> Int {
        guard let value = text("limit") else { return 20 }
        guard let limit = Int(value), (1...100).contains(limit) else { report("must be a whole number from 1 to 100", for: "limit"); return 20 }
        return limit
    }

    /// `q`: the words to look for (bounded as `Keywords`), as an FTS5 query.
    mutating func keywords() -> String? {
        guard let value = text("q") else { return nil }
        do { _ = try Keywords(value) } catch { merge(error); return nil }
        do throws(FullTextQuery.Invalid) { return try FullTextQuery(value).expression() } catch { report(error.message, for: "q"); return nil }
    }
}

/// The filters of a listings query, beyond where.
package struct ListingFilters: Sendable {
    var category: String?
    /// An FTS5 match expression.
    var keywords: String?
    var free: Bool?
    var status: ListingStatus
    var order: ResultOrder
    /// Only listings posted after this point of the log (what alerts ask for).
    var postedAfter: Checkpoint?

    /// Statuses a query may ask for: the others are not in the index.
    static let searchable: [ListingStatus] = [.available, .promised]

    package init(category: String?, keywords: String?, status: ListingStatus, order: ResultOrder, postedAfter: Checkpoint?) {
        self.category = category
        self.keywords = keywords
        self.status = status
        self.order = order
        self.postedAfter = postedAfter
    }

    init(_ fields: inout QueryParameters, defaultOrder: ResultOrder) {
        category = fields.label("category")
        keywords = fields.keywords()
        free = fields.bool("free")
        status = fields.choice("status", of: Self.searchable, default: .available)
        order = fields.choice("sort", of: ResultOrder.allCases, default: defaultOrder)
    }

    var key: String {
        "category=\(category?.lowercased() ?? "")|q=\(keywords ?? "")|free=\(free.map(String.init) ?? "")|status=\(status.rawValue)|sort=\(order.rawValue)"
    }
}

/// The filters of an organisations query, beyond where.
struct OrganizationFilters: Sendable {
    var kinds: [OrganizationKind]?
    var tag: String?
    var acceptsCategory: String?

    init(_ fields: inout QueryParameters) {
        if fields.text("kind") != nil {
            switch fields.choice("kind", of: OrganizationKind.allCases, default: .both) {
            case .centre: kinds = [.centre, .both]
            case .charity: kinds = [.charity, .both]
            case .both: kinds = [.both]
            }
        }
        tag = fields.label("tag")
        acceptsCategory = fields.label("acceptsCategory")
    }

    var key: String {
        "kind=\(kinds?.map(\.rawValue).joined(separator: ",") ?? "")|tag=\(tag?.lowercased() ?? "")|accepts=\(acceptsCategory?.lowercased() ?? "")"
    }
}

/// Paging fields common to every route.
struct Paging: Sendable {
    var limit: Int
    var cursor: String?
    var count: Bool

    init(_ fields: inout QueryParameters) {
        limit = fields.limit()
        cursor = fields.text("cursor")
        count = fields.bool("count") ?? false
    }
}

extension AreaQuery {
    /// The middle of the box (across the antimeridian when the box crosses it): what area
    /// results are ordered by distance from.
    var middle: GeoCoordinate {
        let lat = (southWest.lat + northEast.lat) / 2
        var width = northEast.lon - southWest.lon
        if width < 0 { width += 360 }
        var lon = southWest.lon + width / 2
        if lon > 180 { lon -= 360 }
        return GeoCoordinate(lat: lat, lon: lon) ?? southWest
    }

    var key: String { "sw=\(southWest.lat),\(southWest.lon)|ne=\(northEast.lat),\(northEast.lon)" }
}

extension NearbyQuery {
    var key: String { "center=\(center.lat),\(center.lon)|radius=\(radiusMeters)" }
}
