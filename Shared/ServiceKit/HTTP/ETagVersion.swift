import Codecs

/// The form of the ETags the services send and take back in `If-Match`: an aggregate's
/// version in quotes, `"3"`, optionally weak, `W/"3"`. The OpenAPI document states the same
/// ``pattern``, so a request it calls valid is never refused for its form.
public enum ETagVersion {
    /// The form as a regular expression (JSON Schema `pattern`).
    public static let pattern = #"^(W/)?"[0-9]{1,18}"$"#

    /// The version in `value` (surrounding white space aside), or nil when it has another form.
    public static func parse(_ value: String) -> Int64? {
        var text = value.trimmingWhitespace()[...]
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.count >= 3, text.count <= 20, text.first == "\"", text.last == "\"" else { return nil }
        let digits = text.dropFirst().dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }
}
