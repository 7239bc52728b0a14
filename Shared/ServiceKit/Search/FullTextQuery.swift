/// A keyword search (`q`) as an SQLite FTS5 `MATCH` expression that no input can make
/// malformed: every service that searches text builds its expression here.
///
/// It works on Unicode scalars, never on `Character`. A grapheme cluster can hold a quote:
/// U+0D4E (a "prepend" letter) followed by `"` is one `Character` that `isLetter`, so a
/// filter by `Character` once let the quote through and FTS5 answered "unterminated
/// string" with a 500 (issue 21).
public struct FullTextQuery: Sendable, Hashable {
    /// The longest text accepted, in Unicode scalars.
    public static let maxLength = 200
    /// How many terms are kept by default; later ones are ignored.
    public static let defaultMaxTerms = 10

    /// The terms: runs of letters, combining marks and digits, in the order written.
    /// Everything else (quotes, `*`, `^`, `:`, parentheses, controls, NUL, format marks such
    /// as RTL marks, emoji) separates terms and is never part of one.
    public let terms: [String]

    /// The first `maxTerms` terms of `text`; `Invalid` when it is longer than `maxLength`
    /// scalars or has no term.
    public init(_ text: String, maxTerms: Int = defaultMaxTerms) throws(Invalid) {
        guard text.unicodeScalars.count <= Self.maxLength else { throw Invalid("must be at most \(Self.maxLength) characters") }
        let terms = Self.terms(in: text, limit: maxTerms)
        guard !terms.isEmpty else { throw Invalid("must contain a letter or a digit") }
        self.terms = terms
    }

    /// The query of a `q` parameter; nil when it is absent or only white space.
    public static func parse(_ text: String?, maxTerms: Int = defaultMaxTerms) throws(Invalid) -> FullTextQuery? {
        guard let text, text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return try FullTextQuery(text, maxTerms: maxTerms)
    }

    /// The query of words kept from an earlier search (a saved alert), split again as text is.
    public init(words: [String], maxTerms: Int = defaultMaxTerms) throws(Invalid) {
        try self.init(words.joined(separator: " "), maxTerms: maxTerms)
    }

    /// The expression: each term in double quotes, so that none is read as FTS5 syntax
    /// (`AND`, `OR`, `NOT`, `NEAR`, a column filter), followed by `*` to match it as a prefix
    /// when `prefix`; all terms required.
    public func expression(prefix: Bool = true) -> String {
        terms.map { Self.quoted($0) + (prefix ? "*" : "") }.joined(separator: " ")
    }

    /// Why a text is not a search, as a message for the `q` field.
    public struct Invalid: Error, Sendable, Equatable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    private static func terms(in text: String, limit: Int) -> [String] {
        text.unicodeScalars.split { !isTermScalar($0) }.prefix(limit).map { String(String.UnicodeScalarView($0)) }
    }

    /// `term` as an FTS5 string. Terms hold no quote; doubling one anyway (FTS5's escape)
    /// keeps the quoting sound whatever a term is.
    private static func quoted(_ term: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append("\"")
        for scalar in term.unicodeScalars {
            if scalar == "\"" { scalars.append(scalar) }
            scalars.append(scalar)
        }
        scalars.append("\"")
        return String(scalars)
    }

    private static func isTermScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
