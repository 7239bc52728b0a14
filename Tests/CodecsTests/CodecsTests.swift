import Codecs
import Foundation
import Testing

@Suite("codecs")
struct CodecsTests {
    @Test("base64url: the URL-safe alphabet without padding, round trip; padded or standard-alphabet text is refused")
    func base64URL() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0x00, 0x01]
        #expect(Base64URL.encode(bytes) == "-_-_AAE")
        #expect(Base64URL.decode("-_-_AAE") == bytes)
        for length in 0...40 {
            let random = (0..<length).map { _ in UInt8.random(in: .min ... .max) }
            let text = Base64URL.encode(random)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == random)
        }
        #expect(Base64URL.decode("+/+/AAE") == nil)
        #expect(Base64URL.decode("not base64 !") == nil)
    }

    @Test("name-based ids keep the bits of the ids stored today: version 5 and version 8 layouts")
    func nameBasedIDs() {
        // Computed with the code each service had before the helper (SHA-256, first 16 bytes).
        #expect(NameBasedID.make("anonymous|key-1|", version: .v5) == UUID(uuidString: "3704de7d-cb6e-5048-9e38-4e7a33a7b655"))
        #expect(
            NameBasedID.make("11111111-2222-3333-4444-555555555555|monthly|2026-11", version: .v5)
                == UUID(uuidString: "853ce7b3-64b1-584f-96d7-3efed1ce8dff"))
        #expect(
            NameBasedID.make("aaaaaaaa-0000-0000-0000-000000000001:bbbbbbbb-0000-0000-0000-000000000002", version: .v8)
                == UUID(uuidString: "c4406b08-4e69-827d-a9f3-cce99f810eab"))
        let photo = Array(Data(hex: "2a6927613ddc903379f3e02145f22074ccf048c7753cfa1ed8ee26c746682997"))
        #expect(NameBasedID.make(digest: photo, version: .v8) == UUID(uuidString: "2a692761-3ddc-8033-b9f3-e02145f22074"))
        #expect(NameBasedID.make("a", version: .v5) != NameBasedID.make("b", version: .v5))
    }

    struct Position: CursorPosition, Equatable {
        var key: String
        var row: Int64
        var rank: Double?
        var id: UUID?

        func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                if let id { object.member("id", id) }
                object.member("key", key)
                object.member("rank", rank)
                object.member("row", row)
            }
        }
    }

    /// A string of any characters a key may hold: ASCII, controls, quotes, backslashes,
    /// slashes, accents and emoji.
    private static func randomText() -> String {
        let pool: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "Ü", "€", "😀", "-", ":"]
        return String((0..<Int.random(in: 0...12)).map { _ in pool.randomElement()! })
    }

    @Test("a position writes the bytes JSONEncoder writes (sorted keys, slashes as they are), ids in lower case, and reads back equal")
    func cursorJSONAsEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Foundation writes a UUID's upper-case uuidString; every id the services write is lower case.
        let lowercasedIDs = { (bytes: Data) in
            Array(String(decoding: bytes, as: UTF8.self).replacing(/"[0-9A-F]{8}-(?:[0-9A-F]{4}-){3}[0-9A-F]{12}"/) { $0.output.lowercased() }.utf8)
        }
        let ranks: [Double?] = [nil, 0, -0.5, 1e-7, 12.25, -3.4028234663852886e38, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1 + 0.2]
        for index in 0..<2_000 {
            let position = Position(
                key: Self.randomText(), row: Int64.random(in: .min ... .max),
                rank: index < ranks.count ? ranks[index] : (Bool.random() ? nil : Double.random(in: -1e6...1e6)),
                id: Bool.random() ? UUID() : nil)
            var json: [UInt8] = []
            position.appendCursorJSON(to: &json)
            #expect(json == lowercasedIDs(try encoder.encode(position)), "\(position)")
            let cursor = OpaqueCursor.encode(position, query: "q")
            #expect(try OpaqueCursor.decode(cursor, as: Position.self, query: "q") == position)
        }
        var bare: [UInt8] = []
        Int64(-42).appendCursorJSON(to: &bare)
        #expect(bare == Array(try encoder.encode(Int64(-42))))
    }

    @Test("a position holding a number JSON cannot hold is refused as malformed when it comes back")
    func cursorNotFinite() {
        for rank in [Double.nan, .infinity, -.infinity] {
            let cursor = OpaqueCursor.encode(Position(key: "k", row: 1, rank: rank), query: "q")
            #expect(throws: OpaqueCursor.Refusal.malformed) { try OpaqueCursor.decode(cursor, as: Position.self, query: "q") }
        }
    }

    @Test("a cursor round-trips its position for its own query, and names another query's cursor as such")
    func cursorRoundTrip() throws {
        let position = Position(key: "Café \"Ü\"\n", row: Int64.max, rank: 0.75, id: UUID())
        let cursor = OpaqueCursor.encode(position, query: "q=chairs&order=recent")
        #expect(try OpaqueCursor.decode(cursor, as: Position.self, query: "q=chairs&order=recent") == position)
        #expect(throws: OpaqueCursor.Refusal.otherQuery) { try OpaqueCursor.decode(cursor, as: Position.self, query: "q=tables&order=recent") }
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test("any one character changed, a character dropped or added, padding, or junk: refused as malformed")
    func cursorTampering() {
        let cursor = OpaqueCursor.encode(Position(key: "12.5", row: 7), query: "q")
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(cursor)
        for index in characters.indices {
            let original = characters[index]
            for replacement in alphabet where replacement != original {
                characters[index] = replacement
                #expect(throws: OpaqueCursor.Refusal.malformed) { try OpaqueCursor.decode(String(characters), as: Position.self, query: "q") }
            }
            characters[index] = original
        }
        for text in [String(cursor.dropLast()), cursor + "A", cursor + "=", "", "not a cursor", String(repeating: "A", count: 2_000)] {
            #expect(throws: OpaqueCursor.Refusal.malformed, "\(text.prefix(40))") { try OpaqueCursor.decode(text, as: Position.self, query: "q") }
        }
    }
}

private extension Data {
    init(hex: String) {
        self.init(
            stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            })
    }
}

@Suite("UUID text")
struct UUIDTextTests {
    @Test("parses what UUID(uuidString:) parses, in either case, and refuses what it refuses")
    func sameAsFoundation() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
        }
        let awkward = [
            "", "not-a-uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
            "E621E1F8C36C-495A-93FC-0C247A3E6E5F-", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5Ü", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", " E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        ]
        for text in awkward {
            #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
        }
    }

    @Test("writes what uuidString.lowercased() writes, for random ids and the extremes")
    func lowercasedText() {
        var ids = (0..<2_000).map { _ in UUID() }
        ids += [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ]
        for id in ids {
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
    }
}

@Suite("trimming")
struct TrimmingTests {
    /// Every scalar either set holds, and some neither does, including a combining mark.
    private static let pool: [Unicode.Scalar] = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}", "\u{2029}",
        "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{1C}", "\u{0}", "\u{301}", "a", "Z", "é", "😀", "-",
    ]

    @Test("trims what Foundation's whitespace sets trim, and keeps what they keep, for random texts")
    func sameAsFoundation() {
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8) { text.append(Self.pool.randomElement()!) }
            let string = String(text)
            #expect(string.trimmingWhitespace() == string.trimmingCharacters(in: .whitespaces), "\(string.unicodeScalars.map(\.value))")
            #expect(
                string.trimmingWhitespaceAndNewlines() == string.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(string.unicodeScalars.map(\.value))")
            #expect(string[...].trimmingWhitespace() == string.trimmingCharacters(in: .whitespaces))
        }
    }
}
