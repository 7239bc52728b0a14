import Foundation

/// A type that can read itself from the JSON its `Encodable` conformance writes, in one pass
/// over the bytes (``PlainJSONReader``), for the few types read so often that `JSONDecoder`
/// is most of the cost (issue 17): a rebuild decodes a million `ListingPosted`s.
///
/// The reading is a fast path, never a second schema: it answers nil for anything but the
/// plainest form of the document (an escape in a string, an unknown or repeated key, a
/// number with a fraction where an integer belongs, a date that is not whole seconds in UTC)
/// and the caller hands the bytes to `JSONDecoder`, whose answer is the reference. Where it
/// answers, it must answer exactly what the decoder would.
public protocol PlainJSONReadable: Sendable {
    /// Reads one value at the reader's position; nil when it is not in the plain form.
    init?(reading reader: inout PlainJSONReader)
}

extension PlainJSONReadable {
    /// The value of a whole document; nil when it is not in the plain form.
    public init?(plainJSON bytes: UnsafeRawBufferPointer) {
        var reader = PlainJSONReader(bytes: bytes)
        guard let value = Self(reading: &reader), reader.atEnd else { return nil }
        self = value
    }
}

extension PlainJSONReader {
    /// The next value as `T`, or nil when it is `null`; `.none` when it is neither in plain form.
    public mutating func optional<T>(_ read: (inout PlainJSONReader) -> T?) -> T?? {
        if consumeNull() { return .some(nil) }
        return read(&self).map { .some($0) }
    }
}
