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
            switch key {
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
