import Contracts
import Foundation

/// A response value that writes its own members into ``ResponseJSON``'s buffer, instead of
/// going through `Encodable`'s containers: on a feed page those containers (a generic box and
/// metadata lookup per member) cost more than the bytes (issue 17). The output must be exactly
/// what the type's `encode(to:)` gives under `JSONEncoder` with sorted keys, which is also
/// what `ResponseJSON` falls back to: members in ascending UTF-8 order of their keys, and
/// absent optionals left out, as synthesized `Encodable` leaves them. Test both side by side.
public protocol JSONWritable: Encodable {
    /// Writes the value's members, in key order.
    func writeJSONMembers(_ object: inout JSONObjectWriter) throws
}

/// The members of one object being written. Keys are plain ASCII (no escapes), each greater
/// than the last; debug builds check the order.
public struct JSONObjectWriter {
    fileprivate let writer: JSONByteWriter
    private var count = 0
    #if DEBUG
        private var lastKey = ""
    #endif

    fileprivate init(writer: JSONByteWriter) {
        self.writer = writer
    }

    private mutating func key(_ key: StaticString) {
        #if DEBUG
            let text = key.description
            assert(count == 0 || lastKey.utf8.lexicographicallyPrecedes(text.utf8), "\(text) written after \(lastKey)")
            lastKey = text
        #endif
        writer.writeKey(key, first: count == 0)
        count += 1
    }

    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        writer.writeString(value)
    }

    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        writer.writeBool(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        writer.writeInteger(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int64) {
        self.key(key)
        writer.writeInteger(value)
    }

    public mutating func member(_ key: StaticString, _ value: Double) throws {
        self.key(key)
        try writer.writeFloatingPoint(value)
    }

    public mutating func member(_ key: StaticString, _ value: UUID) {
        self.key(key)
        writer.writeUUID(value)
    }

    public mutating func member(_ key: StaticString, _ value: Date) throws {
        self.key(key)
        try writer.writeDate(value)
    }

    /// A value that writes its own members, without asking at run time whether it can.
    public mutating func member(_ key: StaticString, _ value: some JSONWritable) throws {
        self.key(key)
        try writer.writeObject { try value.writeJSONMembers(&$0) }
    }

    /// Ids, as an array of `UUID`'s strings.
    public mutating func member(_ key: StaticString, _ ids: [UUID]) {
        self.key(key)
        writer.writeArray(ids) { writer.writeUUID($0) }
    }

    /// Texts, as an array of strings.
    public mutating func member(_ key: StaticString, _ texts: [String]) {
        self.key(key)
        writer.writeArray(texts) { writer.writeString($0) }
    }

    /// Any other value, through its own `JSONWritable` or `Encodable` conformance.
    public mutating func member<Value: Encodable>(_ key: StaticString, _ value: Value) throws {
        self.key(key)
        try writer.write(value)
    }

    /// A nested object, written by `body`.
    public mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) throws -> Void) throws {
        self.key(key)
        try writer.writeObject(body)
    }

    /// An array of values that write their own members.
    public mutating func objects<Elements: Sequence>(_ key: StaticString, _ elements: Elements) throws where Elements.Element: JSONWritable {
        self.key(key)
        try writer.writeArray(elements) { element in try writer.writeObject { try element.writeJSONMembers(&$0) } }
    }

    /// Members written once before (``JSONMembers``), as they are: their keys must follow
    /// those written so far and come before those written after, as if written one by one.
    public mutating func members(_ written: JSONMembers) {
        guard !written.bytes.isEmpty else { return }
        if count > 0 { writer.append(UInt8(ascii: ",")) }
        writer.append(contentsOf: written.bytes)
        count += 1
    }

    /// A text, or `null` when there is none (where a client reads the key's absence and
    /// its null alike, leave the key out instead).
    public mutating func member(_ key: StaticString, orNull value: String?) {
        self.key(key)
        if let value { writer.writeString(value) } else { writer.writeNull() }
    }

    /// An array of objects, each written by `body`.
    public mutating func objects<Elements: Sequence>(
        _ key: StaticString, _ elements: Elements, _ body: (inout JSONObjectWriter, Elements.Element) throws -> Void
    ) throws {
        self.key(key)
        try writer.writeArray(elements) { element in try writer.writeObject { try body(&$0, element) } }
    }
}

/// Some members of an object, written once and kept (`"a":1,"b":2`), for a value written
/// many times with one member that changes: a search result kept in memory, its distance
/// written anew for each search (see ``JSONObjectWriter/members(_:)``).
public struct JSONMembers: Sendable {
    let bytes: [UInt8]

    /// The members `body` writes.
    public init(_ body: (inout JSONObjectWriter) throws -> Void) throws {
        let writer = JSONByteWriter()
        try writer.writeObject(body)
        bytes = Array(writer.bytes.dropFirst().dropLast())
    }
}

extension JSONByteWriter {
    /// `value`'s members, between braces.
    func writeObject(_ value: any JSONWritable) throws {
        try writeObject { try value.writeJSONMembers(&$0) }
    }

    fileprivate func writeObject(_ body: (inout JSONObjectWriter) throws -> Void) throws {
        append(UInt8(ascii: "{"))
        var object = JSONObjectWriter(writer: self)
        try body(&object)
        append(UInt8(ascii: "}"))
    }

    fileprivate func writeArray<Elements: Sequence>(_ elements: Elements, _ body: (Elements.Element) throws -> Void) rethrows {
        append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            try body(element)
        }
        append(UInt8(ascii: "]"))
    }
}

// The shared value types that views of several services hold.

extension Money: JSONWritable {
    public func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        object.member("amountMinor", amountMinor)
        object.member("currency", currency)
    }
}
