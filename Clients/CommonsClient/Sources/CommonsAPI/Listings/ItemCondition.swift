/// How worn a listed item is.
public struct ItemCondition: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Never used.
    public static let new: Self = "new"
    /// Used, with no visible wear.
    public static let likeNew: Self = "likeNew"
    public static let good: Self = "good"
    public static let fair: Self = "fair"
    /// Does not work as it is; for repair or spare parts.
    public static let forParts: Self = "forParts"

    public static let known: [Self] = [.new, .likeNew, .good, .fair, .forParts]
}
