/// Finds U+0000 in a JSON text's strings without decoding it.
///
/// SQLite's bound text (through GRDB) ends at the first NUL, so a read model would keep
/// "Sturdy" of "Sturdy\u0000 more" while the log keeps it whole: the HTTP API refuses the
/// character in any body instead (422), before anything is written.
public enum JSONNUL {
    /// True when `json` holds `\u0000` as an escape (not `\\u0000`, an escaped backslash
    /// followed by text), or a raw zero byte. Every JSON body passes through this, so it
    /// reads raw bytes (a generic collection would not be specialized across modules).
    public static func isIn(_ json: UnsafeRawBufferPointer) -> Bool {
        let zeros: (UInt8, UInt8, UInt8, UInt8) = (0x30, 0x30, 0x30, 0x30)
        var backslashes = 0
        var index = 0
        while index < json.count {
            let byte = json[index]
            if byte == 0 { return true }
            if byte == UInt8(ascii: "\\") {
                backslashes += 1
            } else {
                // An odd run of backslashes before `u` makes an escape; an even one is text.
                if byte == UInt8(ascii: "u"), backslashes % 2 == 1, index + 4 < json.count,
                    (json[index + 1], json[index + 2], json[index + 3], json[index + 4]) == zeros
                {
                    return true
                }
                backslashes = 0
            }
            index += 1
        }
        return false
    }
}
