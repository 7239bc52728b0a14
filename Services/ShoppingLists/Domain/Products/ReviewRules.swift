/// What a review must be: 1 to 5 stars and at most 2,000 characters of text.
public enum ReviewRules {
    public static let ratings = 1...5
    public static let maxTextLength = 2_000

    /// Every problem with a review, by field.
    public static func problems(rating: Int, text: String) -> [String: [String]] {
        var problems: [String: [String]] = [:]
        if !ratings.contains(rating) { problems["rating"] = ["must be a whole number of stars from 1 to 5"] }
        if text.count > maxTextLength { problems["text"] = ["must be at most \(maxTextLength) characters"] }
        return problems
    }
}
