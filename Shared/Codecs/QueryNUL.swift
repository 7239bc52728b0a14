/// Finds U+0000 in a URL's query string without decoding it: which fields hold `%00`.
///
/// SQLite's bound text ends at the first NUL (GRDB and `SQLiteParameters` bind with length
/// -1): before this, `category=Furniture%00xyz` answered every furniture listing, read as
/// "Furniture". As in JSON bodies (``JSONNUL``), no field of the HTTP API accepts the character.
public enum QueryNUL {
    /// The names (as written, percent-encoded) of the fields whose name or value holds a
    /// percent-encoded NUL, in their order; empty when none does. A `%` starts every escape,
    /// so `%00` found anywhere is a NUL once decoded (`%2500` is the text "%00", and holds no
    /// `%00`).
    public static func fields(inQuery query: Substring) -> [Substring] {
        guard query.utf8.count >= 3, query.contains("%00") else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true)
            .filter { $0.contains("%00") }
            .map { pair in pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? pair }
    }
}
