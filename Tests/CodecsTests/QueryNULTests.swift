import Codecs
import Foundation
import Testing

@Suite("NUL in query strings")
struct QueryNULTests {
    @Test("names the fields whose value or name decodes to hold a NUL, and only those")
    func namesTheFields() {
        #expect(QueryNUL.fields(inQuery: "category=Furn%00iture&lat=52&q=%00") == ["category", "q"])
        #expect(QueryNUL.fields(inQuery: "a%00b=1&c=2") == ["a%00b"])
        #expect(QueryNUL.fields(inQuery: "flag%00&x=1") == ["flag%00"])
        #expect(QueryNUL.fields(inQuery: "lat=52.1&lon=4.9&radius=5").isEmpty)
        #expect(QueryNUL.fields(inQuery: "").isEmpty)
    }

    @Test("agrees with percent-decoding: a field is named exactly when its decoded text holds U+0000")
    func agreesWithDecoding() {
        let values = ["%00", "%2500", "%25%00", "100%25", "%000", "a%0", "%0%00", "%C3%A9", "x%00y%00", "%%00", "plain"]
        for value in values {
            let decoded = value.removingPercentEncoding
            let named = !QueryNUL.fields(inQuery: "f=\(value)"[...]).isEmpty
            // Text that does not decode at all (a stray %) is refused elsewhere or read as
            // written; where it does decode, the finder must agree with it.
            if let decoded { #expect(named == decoded.contains("\u{0}"), "\(value)") }
        }
    }
}
