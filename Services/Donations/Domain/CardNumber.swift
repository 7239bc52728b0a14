import Foundation

/// A payment card number as a person types it: spaces and dashes allowed, 12 to 19 digits,
/// with a valid Luhn check digit. Only its brand and last four digits are ever kept.
public struct CardNumber: Sendable, Hashable {
    /// The longest card number as typed, separators included, in characters.
    public static let maximumLength = 32

    public let digits: String

    /// The card of `text`; nil unless it is a valid number of at most ``maximumLength`` characters.
    public init?(_ text: String) {
        guard text.count <= Self.maximumLength else { return nil }
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), Self.luhnHolds(digits) else { return nil }
        self.digits = digits
    }

    public var last4: String { String(digits.suffix(4)) }

    /// The brand a client shows, from the leading digits.
    public var brand: String {
        if digits.hasPrefix("4") { return "visa" }
        if let two = Int(digits.prefix(2)), (51...55).contains(two) { return "mastercard" }
        if digits.hasPrefix("34") || digits.hasPrefix("37") { return "amex" }
        return "card"
    }

    private static func luhnHolds(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            var value = Int(String(character)) ?? 0
            if index % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
