import Foundation

/// A cursor over JSON text that knows only what the fast paths of reading stored documents
/// need (``EventMetadata/init(jsonObject:)``, a read model's JSON columns): punctuation,
/// `null`, and strings with no escapes. Each method returns nil or false where the text
/// holds anything else, and the caller hands the document to a full decoder.
public struct PlainJSONReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset = 0

    public init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    public var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return offset == bytes.count
        }
    }

    /// Skips whitespace, then `byte` if it is next; whether it was.
    public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Skips whitespace, then `null` if it is next; whether it was.
    public mutating func consumeNull() -> Bool {
        skipWhitespace()
        guard bytes.count - offset >= 4, bytes[offset] == UInt8(ascii: "n"), bytes[offset + 1] == UInt8(ascii: "u"),
              bytes[offset + 2] == UInt8(ascii: "l"), bytes[offset + 3] == UInt8(ascii: "l") else { return false }
        offset += 4
        return true
    }

    /// The bytes between the quotes of the next string; nil when the next value is not a
    /// string, or the string holds an escape or a control character (left to a full decoder).
    public mutating func plainString() -> UnsafeRawBufferPointer.SubSequence? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return bytes[start..<(offset - 1)]
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            offset += 1
        }
        return nil
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }
}

extension UnsafeRawBufferPointer.SubSequence {
    /// Whether the bytes are exactly `text`'s UTF-8 (compared as memory: a generic
    /// `elementsEqual` was a third of reading a metadata document).
    public func holds(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(base.baseAddress! + startIndex, text.utf8Start, count) == 0)
    }
}
