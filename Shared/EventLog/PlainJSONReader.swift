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
            bytes[offset + 2] == UInt8(ascii: "l"), bytes[offset + 3] == UInt8(ascii: "l")
        else { return false }
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

    /// The next member's key and the colon after it; nil when the next value is not a
    /// plain string followed by a colon.
    public mutating func key() -> UnsafeRawBufferPointer.SubSequence? {
        guard let key = plainString(), consume(UInt8(ascii: ":")) else { return nil }
        return key
    }

    /// Reads an object, calling `member` with each key once the reader stands on its value;
    /// `member` reads the value and returns false for a member it cannot take. Whether the
    /// whole object was read.
    public mutating func object(_ member: (UnsafeRawBufferPointer.SubSequence, inout PlainJSONReader) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = key(), member(key, &self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// The next value as a `String`; nil as for ``plainString()``, or when it is not UTF-8.
    public mutating func string() -> String? {
        guard let text = plainString() else { return nil }
        return String(validating: text, as: UTF8.self)
    }

    /// The next number, rounded to the nearest `Double` (`strtod`, as exact as the decoders'
    /// own reading); nil when the next value is not a number in JSON's grammar, or is longer
    /// than any number a `Double` writes.
    public mutating func double() -> Double? {
        guard let text = numberText(), text.count < 40 else { return nil }
        // strtod wants a terminated string; the number is copied onto the stack with one.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer -> Double? in
            _ = UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, from: text)
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + text.count ? value : nil
        }
    }

    /// The next number when it is an integer written with digits alone (and perhaps a minus)
    /// that fits an `Int`; nil otherwise (a fraction or an exponent is left to a full decoder).
    public mutating func integer() -> Int? {
        let start = offset
        guard let text = numberText() else { return nil }
        var value = 0
        let negative = text.first == UInt8(ascii: "-")
        for byte in text.dropFirst(negative ? 1 : 0) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                offset = start
                return nil
            }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else {
                offset = start
                return nil
            }
            value = next
        }
        return value
    }

    /// The bytes of the next number if they follow JSON's grammar
    /// (`-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`); nil, and nothing read, otherwise.
    public mutating func numberText() -> UnsafeRawBufferPointer.SubSequence? {
        skipWhitespace()
        let start = offset
        var at = offset
        func digits() -> Int {
            let first = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - first
        }
        func next(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
        _ = next(UInt8(ascii: "-"))
        if !next(UInt8(ascii: "0")), digits() == 0 { return nil }
        if next(UInt8(ascii: ".")), digits() == 0 { return nil }
        if next(UInt8(ascii: "e")) || next(UInt8(ascii: "E")) {
            if !next(UInt8(ascii: "+")) { _ = next(UInt8(ascii: "-")) }
            if digits() == 0 { return nil }
        }
        offset = at
        return bytes[start..<at]
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
