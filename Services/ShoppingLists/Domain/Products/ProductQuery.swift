import Foundation

/// `GET /v1/products?q=&category=&limit=&cursor=`, checked: every bad field is reported at once.
public struct ProductQuery: Sendable, Equatable {
    /// The words to search for, each matched as a prefix; nil lists by name.
    public var words: [String]?
    public var category: String?
    public var limit: Int
    public var after: SearchCursor.Position?

    public static let limits = 1...100
    public static let defaultLimit = 20

    /// Reads the query parameters; throws `.invalid` with every problem.
    public init(parameters: [String: String]) throws(ProductQueryError) {
        var problems: [String: [String]] = [:]
        let q = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let q, q.count > 200 { problems["q"] = ["must be at most 200 characters"] }
        let words = q.map(Self.words(in:))
        self.words = (words?.isEmpty ?? true) ? nil : words
        if let q, !q.isEmpty, self.words == nil { problems["q"] = ["must contain a letter or a digit"] }
        category = parameters["category"].flatMap { $0.isEmpty ? nil : $0 }
        if let category, category.count > 100 { problems["category"] = ["must be at most 100 characters"] }
        limit = Self.defaultLimit
        if let text = parameters["limit"] {
            if let value = Int(text), Self.limits.contains(value) { limit = value } else {
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

    /// The query's words, lowercased; anything but letters and digits separates them, so
    /// no full-text syntax gets through.
    static func words(in text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.prefix(10).map(String.init)
    }

    /// The words as an FTS5 query: each a quoted prefix, all required.
    public var matchExpression: String? {
        words.map { $0.map { "\"\($0)\"*" }.joined(separator: " ") }
    }
}

/// Why a product query was refused.
public enum ProductQueryError: Error, Equatable {
    case invalid([String: [String]])
}
