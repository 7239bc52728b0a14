import EventLog
import Foundation
import Testing

/// The owners a page's sealed values name are read from the events' bytes, without decoding.
@Suite("sealed key owners")
struct SealedKeyOwnersTests {
    struct Box: Codable { var keyId: UUID; var box: String }
    struct Body: Codable { var title: String; var text: Box; var place: Box; var note: Box? }

    @Test("names each owner once from compact JSON (JSONEncoder's member order is its own)")
    func compact() throws {
        let (owner, other) = (UUID(), UUID())
        let body = Body(
            title: "Chair", text: Box(keyId: owner, box: "AAAA"), place: Box(keyId: owner, box: "BBBB"), note: Box(keyId: other, box: "CC"))
        let named = SealedKeyOwners.named(in: try JSONEncoder().encode(body))
        #expect(named.count == 2)
        #expect(Set(named) == [owner, other])
    }

    @Test("names the owners in their first order of appearance")
    func order() {
        let (owner, other) = (UUID(), UUID())
        let text = #"{"a":{"keyId":"\#(other)"},"b":{"keyId":"\#(owner)"},"c":{"keyId":"\#(other)"}}"#
        #expect(SealedKeyOwners.named(in: Data(text.utf8)) == [other, owner])
    }

    @Test("reads PostgreSQL's jsonb text, with a space after each colon, and lower- or upper-case ids")
    func jsonbText() {
        let (owner, other) = (UUID(), UUID())
        let text =
            #"{"text": {"box": "AAAA", "keyId": "\#(owner.uuidString.lowercased())"}, "place": {"box": "B", "keyId" :  "\#(other.uuidString)"}}"#
        #expect(SealedKeyOwners.named(in: Data(text.utf8)) == [owner, other])
    }

    @Test("skips what is not a UUID value of a keyId member, and finds nothing in a body without one")
    func malformed() {
        let owner = UUID()
        let cases = [
            #"{"keyId": 12, "title": "keyId"}"#,
            #"{"keyId": "not-a-uuid-not-a-uuid-not-a-uuid-1234"}"#,
            #"{"keyId": "\#(owner.uuidString.prefix(20))"#,
            #"{"keyIdentity": "\#(owner.uuidString)"}"#,
            #"{"title": "Chair"}"#,
            "",
        ]
        for text in cases { #expect(SealedKeyOwners.named(in: Data(text.utf8)).isEmpty, "\(text)") }
        let after = #"{"keyId": 12, "text": {"keyId": "\#(owner.uuidString)"}}"#
        #expect(SealedKeyOwners.named(in: Data(after.utf8)) == [owner], "a bad value does not hide a good one after it")
    }
}
