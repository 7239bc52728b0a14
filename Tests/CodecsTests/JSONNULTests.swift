import Codecs
import Foundation
import Testing

@Suite("NUL in JSON text (JSONNUL)")
struct JSONNULTests {
    @Test(
        "an escaped NUL is found; an escaped backslash before u0000, other escapes and plain text are not",
        arguments: [
            (#"{"title":"Chair\u0000 tail"}"#, true),
            (#"{"title":"\u0000"}"#, true),
            (#"{"title":"a\\\u0000"}"#, true),
            (#"{"title":"a\\u0000"}"#, false),
            (#"{"title":"\\\\u0000"}"#, false),
            (#"{"title":"\u00001"}"#, true),
            (#"{"title":"\u0001 \u00e9 u0000"}"#, false),
            (#"{"title":"ends with a backslash \\"}"#, false),
            (#"{"title":"cut \u000"#, false),
            (#"\u0000"#, true),
        ])
    func escapes(json: String, holdsNUL: Bool) throws {
        #expect(Array(json.utf8).withUnsafeBytes { JSONNUL.isIn($0) } == holdsNUL)
        // What Foundation's decoder makes of it agrees, wherever the text is JSON at all.
        if let decoded = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) {
            #expect(decoded["title"]!.unicodeScalars.contains("\u{0}") == holdsNUL)
        }
    }

    @Test("a raw zero byte is found")
    func rawZero() {
        #expect([UInt8(ascii: "\""), 0, UInt8(ascii: "\"")].withUnsafeBytes { JSONNUL.isIn($0) })
        #expect(![UInt8]().withUnsafeBytes { JSONNUL.isIn($0) })
    }
}
