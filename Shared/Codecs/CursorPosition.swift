import Foundation

/// What an ``OpaqueCursor`` holds: a small value that writes its own JSON, in the bytes
/// `JSONEncoder` with sorted keys and unescaped slashes would write, and is read back with
/// `JSONDecoder`.
///
/// A page of results makes one cursor; building a `JSONEncoder` and its containers for it
/// cost more than the rest of the cursor, SHA-256 included.
public protocol CursorPosition: Codable {
    /// Appends the value's JSON to `json`.
    func appendCursorJSON(to json: inout [UInt8])
}

extension Int64: CursorPosition {
    public func appendCursorJSON(to json: inout [UInt8]) {
        json.appendJSONInteger(self)
    }
}

/// The members of one JSON object of a cursor, written in the order given: callers give
/// them sorted by key, as `JSONEncoder` with `.sortedKeys` writes them. Keys are plain
/// ASCII. A nil member is left out, as synthesized `Encodable` leaves it.
public struct CursorJSONObject {
    private var bytes: [UInt8]
    private var first = true

    /// Writes an object with the members `body` adds at the end of `json`.
    public static func write(to json: inout [UInt8], _ body: (inout CursorJSONObject) -> Void) {
        var object = CursorJSONObject(bytes: json)
        json = []
        object.bytes.append(UInt8(ascii: "{"))
        body(&object)
        object.bytes.append(UInt8(ascii: "}"))
        json = object.bytes
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func key(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    public mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        bytes.appendJSONString(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int64) {
        self.key(key)
        bytes.appendJSONInteger(value)
    }

    /// A number that is not finite, which JSON cannot hold, is written as `NaN`: the cursor
    /// is then refused as malformed when it comes back, as one `JSONEncoder` failed on was.
    public mutating func member(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        self.key(key)
        if !bytes.appendJSONNumber(value) { bytes.append(contentsOf: "NaN".utf8) }
    }

    public mutating func member(_ key: StaticString, _ value: UUID) {
        self.key(key)
        bytes.appendJSONUUID(value)
    }
}
