import Codecs
import Foundation

/// Collects what is wrong with each field of a request, so that one answer lists every bad field.
public struct FieldProblems: Sendable, Equatable {
    public private(set) var byField: [String: [String]] = [:]

    public init() {}

    public var isEmpty: Bool { byField.isEmpty }

    public mutating func add(_ problem: String, to field: String) {
        byField[field, default: []].append(problem)
    }

    /// Notes `problem` for `field` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ problem: String, for field: String) {
        if !condition { add(problem, to: field) }
    }

    /// Checks a text's length after trimming; returns the trimmed text.
    @discardableResult
    public mutating func text(_ value: String, field: String, length: ClosedRange<Int>) -> String {
        let trimmed = value.trimmingWhitespaceAndNewlines()
        if trimmed.count < length.lowerBound {
            add(length.lowerBound <= 1 ? "must not be empty" : "must have at least \(length.lowerBound) characters", to: field)
        } else if trimmed.count > length.upperBound {
            add("must have at most \(length.upperBound) characters", to: field)
        }
        return trimmed
    }

    /// Checks that a URL has at most ``maximumURLLength`` characters; returns whether it has.
    @discardableResult
    public mutating func url(_ value: String, field: String) -> Bool {
        guard value.count <= Self.maximumURLLength else {
            add("must have at most \(Self.maximumURLLength) characters", to: field)
            return false
        }
        return true
    }

    /// Checks that a list has at most `maximum` entries.
    public mutating func count(_ values: [some Any], atMost maximum: Int, for field: String) {
        require(values.count <= maximum, "must have at most \(maximum) entries", for: field)
    }

    /// The longest URL a request may carry, in characters.
    public static let maximumURLLength = 2_048

    /// Checks an ISO 4217 code's shape (three capital letters).
    public mutating func currency(_ value: String, field: String = "currency") {
        require(Amounts.isCurrencyCode(value), "must be an ISO 4217 code such as EUR", for: field)
    }

    /// Throws ``DonationsError/invalid(_:)`` when anything was noted.
    public func check() throws(DonationsError) {
        if !isEmpty { throw .invalid(byField) }
    }
}

/// Rules about amounts of money shared by every request that carries one.
public enum Amounts {
    /// The largest amount one request may move, in minor units (ten million major units).
    public static let largestMinor = 1_000_000_000

    public static func isCurrencyCode(_ text: String) -> Bool {
        text.count == 3 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }
}
