/// The words of a keyword search (`q`) as written, split at white space: at most 10 words
/// and 200 characters (Unicode scalars). Which of their letters and digits are searched, and
/// how, is the service's full-text concern; a word here may hold any character.
public struct Keywords: Sendable, Hashable, Codable {
    /// The words in the order they were written.
    public let words: [String]

    /// The words of `text`, or `.invalid` with a problem for `field`.
    public init(_ text: String, field: String = "q") throws(GeoSearchError) {
        guard text.unicodeScalars.count <= 200 else { throw .invalid([field: ["must be at most 200 characters"]]) }
        let words = text.unicodeScalars.split { $0.properties.isWhitespace }.map { String(String.UnicodeScalarView($0)) }
        guard !words.isEmpty else { throw .invalid([field: ["must contain a word"]]) }
        guard words.count <= 10 else { throw .invalid([field: ["must have at most 10 words"]]) }
        self.words = words
    }
}
