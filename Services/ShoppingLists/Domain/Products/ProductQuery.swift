import Foundation

/// `GET /v1/products?q=&category=&limit=&cursor=`, checked: every bad field is reported at once.
/// The service reads `q` (a full-text concern) and passes its terms in.
public struct ProductQuery: Sendable, Hashable {
    /// The words to search for, each matched as a prefix; nil lists by name.
    public var words: [String]?
    public var category: String?
    public var limit: Int
    public var after: SearchCursor.Position?

    public static let limits = 1...100
    public static let defaultLimit = 20

    /// Reads the query parameters but `q`, whose search terms are `terms` (nil without a
    /// search); throws `.invalid` with every problem.
    public init(parameters: [String: String], terms: [String]?) throws(ProductQueryError) {
        var problems: [String: [String]] = [:]
        words = terms.flatMap { $0.isEmpty ? nil : $0.map { $0.lowercased() } }
        category = parameters["category"].flatMap { $0.isEmpty ? nil : $0 }
        if let category, category.count > 100 { problems["category"] = ["must be at most 100 characters"] }
        limit = Self.defaultLimit
        if let text = parameters["limit"] {
            if let value = Int(text), Self.limits.contains(value) {
                limit = value
            } else {
                problems["limit"] = ["must be a whole number from \(Self.limits.lowerBound) to \(Self.limits.upperBound)"]
            }
        }
        after = nil
        if let cursor = parameters["cursor"], problems.isEmpty {
            guard let position = SearchCursor.decode(cursor, queryKey: Self.key(words: self.words, category: category)) else {
                throw .invalid(["cursor": ["is not a cursor of this query; ask for the first page again"]])
            }
            after = position
        }
        guard problems.isEmpty else { throw .invalid(problems) }
    }

    /// What the cursor is tied to: every parameter but `limit` and `cursor`.
    public var key: String { Self.key(words: words, category: category) }

    private static func key(words: [String]?, category: String?) -> String {
        "q=\(words?.joined(separator: " ") ?? "")&category=\(category ?? "")"
    }
}

/// Why a product query was refused.
public enum ProductQueryError: Error, Equatable {
    case invalid([String: [String]])
}
