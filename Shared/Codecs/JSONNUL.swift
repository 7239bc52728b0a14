/// Finds U+0000 in a JSON text's strings without decoding it.
///
/// SQLite's bound text (through GRDB) ends at the first NUL, so a read model would keep
/// "Sturdy" of "Sturdy\u0000 more" while the log keeps it whole: the HTTP API refuses the
/// character in any body instead (422), before anything is written.
public enum JSONNUL {
    /// True when `json` holds `\u0000` as an escape (not `\\u0000`, an escaped backslash
    /// followed by text), or a raw zero byte.
    public static func isIn(_ json: some Collection<UInt8>) -> Bool {
        var backslashes = 0
        var index = json.startIndex
        while index != json.endIndex {
            let byte = json[index]
            if byte == 0 { return true }
            if byte == UInt8(ascii: "\\") {
                backslashes += 1
            } else {
                // An odd run of backslashes before `u` makes an escape; an even one is text.
                if byte == UInt8(ascii: "u"), backslashes % 2 == 1, json[json.index(after: index)...].starts(with: "0000".utf8) {
                    return true
                }
                backslashes = 0
            }
            index = json.index(after: index)
        }
        return false
    }
}
