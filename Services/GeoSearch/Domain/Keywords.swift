/// The words of a keyword search (`q`): letters and digits, at most 10 words and 200
/// characters, each matching as a prefix, all required.
public struct Keywords: Sendable, Hashable, Codable {
    /// The words in the order they were written.
    public let words: [String]

    /// The words of `text`, or `.invalid` with a problem for `field`.
    public init(_ text: String, field: String = "q") throws(GeoSearchError) {
        guard text.count <= 200 else { throw .invalid([field: ["must be at most 200 characters"]]) }
        let words = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard !words.isEmpty else { throw .invalid([field: ["must contain a word"]]) }
        guard words.count <= 10 else { throw .invalid([field: ["must have at most 10 words"]]) }
        self.words = words
    }

    /// An SQLite FTS5 query for these words that cannot be malformed: each word quoted (so no
    /// word is read as an operator), as a prefix, all required.
    public var fullTextQuery: String {
        words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
