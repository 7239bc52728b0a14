import Codecs
import CommonsAPI
import Contracts
import Foundation

/// What a person sends to register (`CommonsAPI.Registration`), checked field by field.
extension Registration {
    /// Every problem with every field; empty when the registration may go ahead.
    public func problems() -> [String: [String]] {
        var problems: [String: [String]] = [:]
        if EmailAddress(email) == nil { problems["email", default: []].append("is not an email address") }
        let passwordProblems = PasswordPolicy.problems(with: password)
        if !passwordProblems.isEmpty { problems["password"] = passwordProblems }
        if let problem = ProfileRules.displayNameProblem(displayName) { problems["displayName", default: []].append(problem) }
        return problems
    }
}

/// A normalised email address: trimmed and lowercased, with one `@`, a local part and a
/// dotted domain. Two spellings that normalise alike are the same account.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The longest address, in characters (RFC 5321's path limit, less its angle brackets).
    public static let maximumLength = 254

    public let normalized: String

    public init?(_ text: String) {
        let candidate = text.trimmingWhitespaceAndNewlines().lowercased()
        let parts = candidate.split(separator: "@", omittingEmptySubsequences: false)
        guard candidate.count <= Self.maximumLength, parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains(".."),
            candidate.allSatisfy({ !$0.isWhitespace && $0 != "<" && $0 != ">" && $0 != "," })
        else { return nil }
        normalized = candidate
    }

    public var description: String { normalized }
}

/// The rules for profile fields.
public enum ProfileRules {
    public static func displayNameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingWhitespaceAndNewlines()
        return (1...60).contains(trimmed.count) ? nil : "must be 1 to 60 characters"
    }

    /// The longest phone number, separators included, in characters.
    public static let maximumPhoneLength = 32

    public static func phoneProblem(_ phone: String) -> String? {
        guard phone.count <= maximumPhoneLength else { return "must be at most \(maximumPhoneLength) characters" }
        let digits = phone.filter(\.isNumber)
        let allowed = phone.allSatisfy { $0.isNumber || " +-().".contains($0) }
        return allowed && (6...15).contains(digits.count) ? nil : "must be a phone number of 6 to 15 digits"
    }

    public static func locationProblems(_ location: CommonsAPI.Coordinate) -> [String: [String]] {
        var problems: [String: [String]] = [:]
        if !(-90...90).contains(location.lat) || !location.lat.isFinite { problems["homeLocation.lat"] = ["must be between -90 and 90"] }
        if !(-180...180).contains(location.lon) || !location.lon.isFinite { problems["homeLocation.lon"] = ["must be between -180 and 180"] }
        return problems
    }
}
