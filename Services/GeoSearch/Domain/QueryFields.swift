import Codecs
import Foundation
import Geo

/// Reads raw query-string fields and collects every problem on the way, so that a request
/// hears about all of its bad or missing fields at once.
struct QueryFields {
    private let raw: [String: String]
    private(set) var problems: [String: [String]] = [:]

    init(_ raw: [String: String]) {
        self.raw = raw
    }

    mutating func report(_ problem: String, for field: String) {
        problems[field, default: []].append(problem)
    }

    /// The field's text without surrounding spaces; nil when absent or blank.
    func text(_ field: String) -> String? {
        guard let value = raw[field]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return value
    }

    /// A finite decimal number; nil (with a problem noted) when it is missing and required, or malformed.
    mutating func number(_ field: String, required: Bool) -> Double? {
        guard let text = text(field) else {
            if required { report("is required", for: field) }
            return nil
        }
        // Double(_:) also reads "nan", "inf" and hexadecimal; a query parameter is plain decimal.
        guard text.utf8.allSatisfy(Self.isDecimalByte), let value = Double(text), value.isFinite else {
            report("must be a number", for: field)
            return nil
        }
        return value
    }

    /// Digits, signs, a point and an exponent: bytes, as comparing `Character`s costs more than
    /// the rest of a nearby query's parsing (issue 17).
    private static func isDecimalByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// A required coordinate from two fields, each checked for its range.
    mutating func coordinate(lat latField: String, lon lonField: String) -> GeoCoordinate? {
        let lat = number(latField, required: true)
        let lon = number(lonField, required: true)
        if let lat, let problem = GeoCoordinate.latitudeProblem(lat) { report(problem, for: latField) }
        if let lon, let problem = GeoCoordinate.longitudeProblem(lon) { report(problem, for: lonField) }
        guard let lat, let lon else { return nil }
        return GeoCoordinate(lat: lat, lon: lon)
    }
}
