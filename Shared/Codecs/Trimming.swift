/// Trimming whitespace as Foundation's `trimmingCharacters(in: .whitespaces)` and
/// `(in: .whitespacesAndNewlines)` do, scalar by scalar, without their round trip through
/// `NSString` and `CharacterSet` on Linux: request parameters and drafts are trimmed on
/// every request, and that round trip cost more than the parsing around it.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (Unicode's space separators,
    /// U+0009, and U+200B, the zero-width space Foundation counts too), as
    /// `trimmingCharacters(in: .whitespaces)` returns it.
    public func trimmingWhitespace() -> String {
        trimmingScalars(where: Self.isWhitespace)
    }

    /// The text without leading and trailing whitespace and line breaks, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns it.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    private func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !trimmed($0) })!
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return String(self) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
