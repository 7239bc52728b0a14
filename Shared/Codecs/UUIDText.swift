import Foundation

extension UUID {
    /// Parses the 36-character text form (`8-4-4-4-12` hex digits, either case), as
    /// `UUID(uuidString:)` does, without the `sscanf` call per byte that Foundation makes on
    /// Linux: read models store ids as text, and a page of rows parses dozens (issue 17).
    public init?(text: String) {
        var text = text
        guard let id = text.withUTF8({ UUID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = id
    }

    /// The same, from the text's UTF-8 bytes.
    public init?(utf8: UnsafeRawBufferPointer) {
        guard utf8.count == 36, utf8[8] == 0x2D, utf8[13] == 0x2D, utf8[18] == 0x2D, utf8[23] == 0x2D else { return nil }
        var parsed: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = withUnsafeMutableBytes(of: &parsed) { bytes -> Bool in
            var index = 0
            for position in [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34] {
                guard let high = Self.nibble(utf8[position]), let low = Self.nibble(utf8[position + 1]) else { return false }
                bytes[index] = high << 4 | low
                index += 1
            }
            return true
        }
        guard complete else { return nil }
        self.init(uuid: parsed)
    }

    /// The 36-character text form in lower case, as stream names, read-model keys and JSON
    /// write ids: `uuidString.lowercased()` without Foundation's `snprintf` and a second string.
    public var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { text in
            writeText(into: text, uppercase: false)
            return 36
        }
    }

    /// Writes the 36-character text form into the first 36 bytes of `text`, in upper case
    /// (as `uuidString`) or lower case.
    func writeText(into text: UnsafeMutableBufferPointer<UInt8>, uppercase: Bool) {
        let letters = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : letters + nibble - 10 }
        withUnsafeBytes(of: uuid) { bytes in
            var at = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                text[at] = digit(byte >> 4)
                text[at + 1] = digit(byte & 0x0F)
                at += 2
            }
        }
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character - 0x30
        case 0x41...0x46: character - 0x41 + 10
        case 0x61...0x66: character - 0x61 + 10
        default: nil
        }
    }
}
