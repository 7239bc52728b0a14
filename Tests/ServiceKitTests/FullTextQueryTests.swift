import ServiceKit
import Testing

/// What any `q` becomes: terms of letters, marks and digits, each quoted for FTS5 (issue 21).
@Suite("full-text queries")
struct FullTextQueryTests {
    /// Inputs that once reached FTS5 as syntax, or could: quotes, operators, controls, and
    /// graphemes that glue a quote to a letter.
    static let nasty: [String] = [
        "\u{0D4E}\"", "\u{0D4E}\"\"", "a\u{0D4E}\"b", "\u{0600}\"", "\u{110BD}\"x", "\"", "\"\"", "\"abc", "abc\"", "*", "a*", "* a",
        "NEAR(a b)", "NEAR(", "a AND b", "a OR", "NOT a", "^a", "a:b", "title:x", "-a", "+a", "(a", "a)", "{a b}", "a\u{0}b", "\u{0}",
        "e\u{301}\u{301}\u{301}", "\u{301}\"", "\"\u{301}", "\u{200F}abc\u{200E}\"", "\u{202E}\"x", "👩‍👩‍👧\"", "🇳🇱", "a\u{200D}\"b",
        "\u{FEFF}\"", "\u{E000}\"", "ﷺ\"", "٣\"", "x\r\n\"y", "\t\"\u{0B}",
    ]

    @Test("every term is quoted and no quote, operator or control survives", arguments: nasty)
    func nastyInputs(text: String) {
        guard let query = try? FullTextQuery(text) else { return }
        for expression in [query.expression(prefix: true), query.expression(prefix: false)] {
            #expect(Self.isWellFormed(expression), "\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(expression)")
            #expect(!expression.unicodeScalars.contains { $0.value < 0x20 || $0 == "(" || $0 == ":" || $0 == "^" }, "\(expression)")
        }
    }

    @Test("a prepend letter glued to a quote is a term of its own; the quote is gone")
    func prependAndQuote() throws {
        let query = try FullTextQuery("\u{0D4E}\"")
        #expect(query.terms == ["\u{0D4E}"])
        #expect(query.expression() == "\"\u{0D4E}\"*")
        #expect(try FullTextQuery("sofa AND \"bed\" NEAR(x)").expression(prefix: false) == "\"sofa\" \"AND\" \"bed\" \"NEAR\" \"x\"")
        #expect(try FullTextQuery("cafe\u{301} 42").terms == ["cafe\u{301}", "42"])
    }

    @Test("a quote inside a stored word is doubled, so even that is one FTS5 string")
    func storedWords() throws {
        #expect(try FullTextQuery(words: ["\u{0D4E}\"", "a"]).expression() == "\"\u{0D4E}\"* \"a\"*")
    }

    @Test("text with no letter or digit, or over 200 scalars, is refused; blank is no search")
    func bounds() throws {
        for text in ["\"", "***", "\u{0}", "\u{200F}\u{200E}", "👍", "( : ^ )"] {
            #expect(throws: FullTextQuery.Invalid.self, "\(text)") { try FullTextQuery(text) }
        }
        #expect(try FullTextQuery.parse(nil) == nil && FullTextQuery.parse(" \t\n") == nil)
        let long = String(repeating: "a", count: 100_000)
        #expect(throws: FullTextQuery.Invalid.self) { try FullTextQuery(long) }
        // One `Character` of 201 scalars is over the bound, which counts scalars.
        #expect(throws: FullTextQuery.Invalid.self) { try FullTextQuery("a" + String(repeating: "\u{301}", count: 200)) }
        #expect(try FullTextQuery(String(repeating: "a", count: 200)).terms.count == 1)
        #expect(try FullTextQuery((1...30).map(String.init).joined(separator: " ")).terms.count == FullTextQuery.defaultMaxTerms)
        #expect(try FullTextQuery((1...30).map(String.init).joined(separator: " "), maxTerms: 20).terms.count == 20)
    }

    /// Whether `expression` is a sequence of FTS5 strings (`"…"`, a quote inside doubled),
    /// each optionally followed by `*`, separated by single spaces.
    static func isWellFormed(_ expression: String) -> Bool {
        var scalars = Array(expression.unicodeScalars)[...]
        while !scalars.isEmpty {
            guard scalars.popFirst() == "\"" else { return false }
            var closed = false
            while let scalar = scalars.popFirst() {
                guard scalar == "\"" else { continue }
                if scalars.first == "\"" { scalars.removeFirst() } else { closed = true; break }
            }
            guard closed else { return false }
            if scalars.first == "*" { scalars.removeFirst() }
            if scalars.isEmpty { return true }
            guard scalars.popFirst() == " " else { return false }
        }
        return false
    }
}
