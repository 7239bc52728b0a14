/// A set of values the API names with strings and may add to: a listing's category,
/// condition and status, a currency. Unlike a Swift `enum`, a value this version of the SDK
/// does not know (one a newer server added) still decodes, compares and is sent back as
/// it came, so an app keeps working while it learns about it from ``isKnown``.
///
/// On the wire a value is its ``rawValue``, a JSON string; in code a string literal makes
/// one, so `listing.status == "available"` and `.available` mean the same.
public protocol OpenEnum: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String, StringLiteralType == String {
    /// The values this version of the SDK knows, as static members of the type.
    static var known: [Self] { get }

    /// The value named `rawValue`, known or not.
    init(rawValue: String)
}

extension OpenEnum {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// Decodes a JSON string, whatever it says.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw value as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The raw value, as sent.
    public var description: String { rawValue }

    /// Whether this version of the SDK knows the value; false for one a newer server added.
    public var isKnown: Bool { Self.known.contains(self) }
}
