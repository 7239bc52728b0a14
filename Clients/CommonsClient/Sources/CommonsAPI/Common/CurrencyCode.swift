/// An ISO 4217 currency code, e.g. `EUR`. The services take any code of three capital
/// letters (``isWellFormed``); ``known`` names the ones the SDK spells out.
public struct CurrencyCode: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let eur: Self = "EUR"
    public static let usd: Self = "USD"
    public static let gbp: Self = "GBP"
    public static let chf: Self = "CHF"

    public static let known: [Self] = [.eur, .usd, .gbp, .chf]

    /// Whether the code has the shape the services accept: three capital letters A–Z.
    public var isWellFormed: Bool {
        rawValue.unicodeScalars.count == 3 && rawValue.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }
}
