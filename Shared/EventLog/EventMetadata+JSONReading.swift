import Foundation

extension EventMetadata {
    /// The metadata in a JSON object, as the log stores it: one document per event, read
    /// as one column. A flat object of plain strings (what both stores write, whether
    /// PostgreSQL's `jsonb` or SQLite's compact text) is read in one pass over its bytes,
    /// with no decoder and no intermediate values; anything else (an escape in a string, a
    /// value that is not a string) goes to `JSONDecoder`, which also rejects what is not JSON.
    /// Keys other than the six fields are ignored, as the decoder ignores them.
    public init(jsonObject bytes: UnsafeRawBufferPointer) throws {
        if let metadata = Self.plainObject(bytes) {
            self = metadata
        } else {
            self = try JSONDecoder().decode(EventMetadata.self, from: Data(bytes))
        }
    }

    /// The metadata of a flat object whose values are strings without escapes (or null);
    /// nil for anything else, which the caller hands to a full decoder.
    private static func plainObject(_ bytes: UnsafeRawBufferPointer) -> EventMetadata? {
        var reader = PlainJSONReader(bytes: bytes)
        var metadata = EventMetadata()
        guard reader.consume(UInt8(ascii: "{")) else { return nil }
        if reader.consume(UInt8(ascii: "}")) { return reader.atEnd ? metadata : nil }
        repeat {
            guard let key = reader.plainString(), reader.consume(UInt8(ascii: ":")) else { return nil }
            let value: String?
            if reader.consumeNull() {
                value = nil
            } else {
                guard let text = reader.plainString() else { return nil }
                value = String(decoding: text, as: UTF8.self)
            }
            switch UnsafeRawBufferPointer(rebasing: key) {
            case let key where key.holds("actorId"): metadata.actorId = value
            case let key where key.holds("service"): metadata.service = value
            case let key where key.holds("requestId"): metadata.requestId = value
            case let key where key.holds("causationId"): metadata.causationId = value
            case let key where key.holds("traceparent"): metadata.traceparent = value
            case let key where key.holds("correlationId"): metadata.correlationId = value
            default: break
            }
        } while reader.consume(UInt8(ascii: ","))
        guard reader.consume(UInt8(ascii: "}")), reader.atEnd else { return nil }
        return metadata
    }
}

/// A cursor over JSON text that knows only what ``EventMetadata/init(jsonObject:)``'s fast
/// path needs: punctuation, `null`, and strings with no escapes.
private struct PlainJSONReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return offset == bytes.count
        }
    }

    /// Skips whitespace, then `byte` if it is next; whether it was.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Skips whitespace, then `null` if it is next; whether it was.
    mutating func consumeNull() -> Bool {
        skipWhitespace()
        guard bytes.count - offset >= 4, bytes[offset] == UInt8(ascii: "n"), bytes[offset + 1] == UInt8(ascii: "u"),
              bytes[offset + 2] == UInt8(ascii: "l"), bytes[offset + 3] == UInt8(ascii: "l") else { return false }
        offset += 4
        return true
    }

    /// The bytes between the quotes of the next string; nil when the next value is not a
    /// string, or the string holds an escape or a control character (left to a full decoder).
    mutating func plainString() -> UnsafeRawBufferPointer.SubSequence? {
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

extension UnsafeRawBufferPointer {
    /// Whether the bytes are exactly `text`'s UTF-8 (compared as memory: a generic
    /// `elementsEqual` was a third of reading a document).
    fileprivate func holds(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}
