import Codecs
import EventLog
import Foundation

extension PlainJSONReader {
    /// The next value as an id in its 36-character text form (either case, as `UUID(uuidString:)` reads).
    public mutating func uuid() -> UUID? {
        plainString().flatMap { UUID(utf8: UnsafeRawBufferPointer(rebasing: $0)) }
    }

    /// The next value as a date written `YYYY-MM-DDTHH:MM:SSZ`, the form `.iso8601` encodes.
    public mutating func wholeSecondDate() -> Date? {
        plainString().flatMap { WholeSecondISO8601.date(UnsafeRawBufferPointer(rebasing: $0)) }
    }

    /// Reads `value` into `slot` unless the slot is already filled (a repeated key); whether it did.
    public mutating func fill<T>(_ slot: inout T?, _ value: (inout PlainJSONReader) -> T?) -> Bool {
        guard slot == nil else { return false }
        slot = value(&self)
        return slot != nil
    }
}

extension PlainJSONReader {
    /// An object of exactly two members, both required, in either order.
    public mutating func pair<First, Second>(
        _ firstKey: StaticString, _ readFirst: (inout PlainJSONReader) -> First?,
        _ secondKey: StaticString, _ readSecond: (inout PlainJSONReader) -> Second?
    ) -> (First, Second)? {
        var first: First?, second: Second?
        let read = object { key, reader in
            if key.holds(firstKey) { return reader.fill(&first, readFirst) }
            if key.holds(secondKey) { return reader.fill(&second, readSecond) }
            return false
        }
        guard read, let first, let second else { return nil }
        return (first, second)
    }
}

extension Coordinate: PlainJSONReadable {
    public init?(reading reader: inout PlainJSONReader) {
        guard let (lat, lon) = reader.pair("lat", { $0.double() }, "lon", { $0.double() }) else { return nil }
        self.init(lat: lat, lon: lon)
    }
}

extension Money: PlainJSONReadable {
    public init?(reading reader: inout PlainJSONReader) {
        guard let (amount, currency) = reader.pair("amountMinor", { $0.integer() }, "currency", { $0.string() }) else { return nil }
        self.init(amountMinor: amount, currency: currency)
    }
}

extension Sealed: PlainJSONReadable {
    public init?(reading reader: inout PlainJSONReader) {
        guard let (keyId, box) = reader.pair("keyId", { $0.uuid() }, "box", { $0.string() }) else { return nil }
        self.init(keyId: keyId, box: box)
    }
}
