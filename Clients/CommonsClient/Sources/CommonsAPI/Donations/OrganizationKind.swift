/// What an organisation is: a charity people give money to, a centre that takes things, or
/// both. A newer server may answer with a kind this SDK does not know; it decodes too (see
/// ``OpenEnum``).
public struct OrganizationKind: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Takes donations of money.
    public static let charity: Self = "charity"
    /// Takes things, at a place with opening hours.
    public static let centre: Self = "centre"
    /// Both a charity and a centre.
    public static let both: Self = "both"

    public static let known: [Self] = [.charity, .centre, .both]
}
