/// The fixed taxonomy a listing is filed under; the raw value is what clients send and see.
public enum ListingCategory: String, CaseIterable, Sendable {
    case clothes = "Clothes"
    case electronics = "Electronics"
    case food = "Food"
    case furniture = "Furniture"
    case sports = "Sports"
    case toys = "Toys"
    case books = "Books"
    case household = "Household"
    case other = "Other"

    /// The names as a client may send them, for error messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

/// How worn an item is.
public enum ItemCondition: String, CaseIterable, Sendable {
    case new, likeNew, good, fair, forParts

    /// The names as a client may send them, for error messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
