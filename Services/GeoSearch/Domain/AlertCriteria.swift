import Codecs
import Foundation
import Geo

/// A saved search: listings posted from now on within a radius of a centre, optionally in one
/// category and containing every keyword. What `POST /v1/alerts` takes and what is sealed
/// into `AlertCreated`.
public struct AlertCriteria: Codable, Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    public var radiusMeters: Double
    /// The unit the radius was given in, for echoing it back.
    public var unit: DistanceUnit
    public var category: String?
    public var keywords: Keywords?
    /// The owner's own label for the alert.
    public var name: String?

    /// 100 km (62.137 mi): an alert is about a neighbourhood or a city, and a larger one
    /// would match nearly everything posted. The OpenAPI document states both numbers.
    public static func maximumRadius(in unit: DistanceUnit) -> Double {
        switch unit {
        case .kilometers: 100
        case .miles: 62.137
        }
    }

    /// Reads the fields (`lat`, `lon`, `radius`, `unit`, `category`, `q`, `name`) as text;
    /// `.invalid` lists every bad or missing field at once. The radius defaults to 10 km.
    public static func parse(_ fields: [String: String]) throws(GeoSearchError) -> AlertCriteria {
        var problems: [String: [String]] = [:]
        func note(_ error: GeoSearchError) {
            switch error {
            case .invalid(let more): problems.merge(more) { $0 + $1 }
            }
        }
        func text(_ field: String) -> String? {
            guard let value = fields[field]?.trimmingWhitespace(), !value.isEmpty else { return nil }
            return value
        }
        var nearby: NearbyQuery?
        do { nearby = try NearbyQuery.parse(fields) } catch { note(error) }
        // The same product as NearbyQuery's, so the bound itself is accepted in either unit.
        if let nearby, nearby.radiusMeters > maximumRadius(in: nearby.unit) * nearby.unit.meters {
            problems["radius", default: []].append("must be at most 100 km (62.137 mi) for an alert")
        }
        var keywords: Keywords?
        if let q = text("q") {
            do { keywords = try Keywords(q) } catch { note(error) }
        }
        for field in ["category", "name"] where (text(field)?.count ?? 0) > 100 {
            problems[field, default: []].append("must be at most 100 characters")
        }
        guard problems.isEmpty, let nearby else { throw .invalid(problems) }
        return AlertCriteria(
            lat: nearby.center.lat, lon: nearby.center.lon, radiusMeters: nearby.radiusMeters, unit: nearby.unit,
            category: text("category"), keywords: keywords, name: text("name"))
    }

    /// The search's centre.
    public var center: GeoCoordinate {
        // Parsed values are in range; a stored one that is not falls back to a point it cannot match.
        GeoCoordinate(lat: lat, lon: lon) ?? GeoCoordinate(lat: 0, lon: 0)!
    }

    /// The boxes to ask a latitude/longitude index for.
    public var indexBoxes: [LatLonBox] {
        LatLonBox.covering(center: center, radiusMeters: radiusMeters)
    }

    /// Whether a listing's public point is within the radius, edge included.
    public func covers(_ point: GeoCoordinate) -> Bool {
        center.distanceMeters(to: point) <= radiusMeters
    }

    /// Whether a listing's category is the one asked for (any, when none was), ignoring case.
    public func accepts(category listingCategory: String) -> Bool {
        category.map { $0.caseInsensitiveCompare(listingCategory) == .orderedSame } ?? true
    }
}
