/// The category a listing is filed under (the listings service's fixed list, which a later
/// version may extend). Also what a donation centre accepts.
public struct ListingCategory: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let clothes: Self = "Clothes"
    public static let electronics: Self = "Electronics"
    public static let food: Self = "Food"
    public static let furniture: Self = "Furniture"
    public static let sports: Self = "Sports"
    public static let toys: Self = "Toys"
    public static let books: Self = "Books"
    public static let household: Self = "Household"
    public static let other: Self = "Other"

    public static let known: [Self] = [.clothes, .electronics, .food, .furniture, .sports, .toys, .books, .household, .other]
}
