import Codecs
import Foundation

/// The bodies of responses: exactly the bytes `ServiceJSON.encoder` (Foundation's
/// `JSONEncoder` with sorted keys, unescaped slashes and ISO 8601 dates) writes, but for ids,
/// which it writes in lower case (Foundation writes a `UUID` in upper case), in a fraction
/// of its time (issue 17). Foundation's encoder builds a tree of dictionaries, keeps a coding
/// path per value and sorts keys with a locale-aware comparison; this one writes each value
/// straight into one byte buffer and puts an object's members in order when it closes.
///
/// What it does not do itself (nested containers, `superEncoder`, a container of another
/// kind on the same encoder, decimals, years outside 1600–9999) it hands back to `JSONEncoder`
/// for the whole value, so the output stays the same but for the ids' case. No answer type of
/// the API needs that but for such a year.
public enum ResponseJSON {
    /// `value` as JSON.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONByteWriter()
        do {
            try writer.write(value)
            return writer.bytes
        } catch is JSONByteWriter.Unsupported {
            return Array(try ServiceJSON.encoder.encode(value))
        }
    }
}

/// The encoder behind ``ResponseJSON``: one per response, `Encoder` to every value's `encode(to:)`.
final class JSONByteWriter: Encoder {
    /// Thrown for anything the writer leaves to Foundation.
    struct Unsupported: Error {}

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The container the value being written asked for, if any.
    private enum Opened {
        case none
        case single
        case keyed(Int) // index into `objects`
        case unkeyed(count: Int)
    }

    /// Everything the writer keeps while it writes.
    private struct State {
        var bytes: [UInt8] = []
        var opened: Opened = .none
        /// The members of every object being written, innermost last: key and where its
        /// bytes start and end. One flat list, so that a member costs no array of its own.
        var members: [(key: String, start: Int, end: Int)] = []
        /// Where each open object's members begin in `members`, innermost last.
        var objects: [Int] = []
    }

    // Behind a pointer that only this writer holds: a class's stored properties are checked
    // for exclusive access at run time on every access, and those checks were a quarter of
    // writing a page (issue 17). The writer is never shared: one per response, on one task.
    private let state: UnsafeMutablePointer<State>

    /// The JSON written so far.
    var bytes: [UInt8] { state.pointee.bytes }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.bytes.reserveCapacity(4096)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Writes `value` with whatever containers its `encode(to:)` asks for, then closes them.
    func write<T: Encodable>(_ value: T) throws {
        if T.self == UUID.self { return writeUUID(value as! UUID) }
        if T.self == Date.self { return try writeDate(value as! Date) }
        if T.self == URL.self { return writeString((value as! URL).absoluteString) }
        if T.self == Data.self { return writeString((value as! Data).base64EncodedString()) }
        if T.self == Decimal.self { throw Unsupported() }
        if let writable = value as? any JSONWritable { return try writeObject(writable) }
        let outer = state.pointee.opened
        state.pointee.opened = .none
        try value.encode(to: self)
        switch state.pointee.opened {
        case .none: state.pointee.bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .single: break
        case .keyed(let index): closeObject(index)
        case .unkeyed: state.pointee.bytes.append(UInt8(ascii: "]"))
        }
        state.pointee.opened = outer
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch state.pointee.opened {
        case .none:
            state.pointee.bytes.append(UInt8(ascii: "{"))
            state.pointee.objects.append(state.pointee.members.count)
            state.pointee.opened = .keyed(state.pointee.objects.count - 1)
            return KeyedEncodingContainer(KeyedWriter<Key>(writer: self, object: state.pointee.objects.count - 1))
        case .keyed(let index):
            return KeyedEncodingContainer(KeyedWriter<Key>(writer: self, object: index))
        default:
            return KeyedEncodingContainer(KeyedWriter<Key>(writer: self, object: nil))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch state.pointee.opened {
        case .none:
            state.pointee.bytes.append(UInt8(ascii: "["))
            state.pointee.opened = .unkeyed(count: 0)
            return UnkeyedWriter(writer: self, usable: true)
        case .unkeyed:
            return UnkeyedWriter(writer: self, usable: true)
        default:
            return UnkeyedWriter(writer: self, usable: false)
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        switch state.pointee.opened {
        case .none:
            state.pointee.opened = .single
            return SingleWriter(writer: self, usable: true)
        default:
            return SingleWriter(writer: self, usable: false)
        }
    }

    // MARK: Members

    /// Starts a member of object `index`: the comma, the key and the colon.
    fileprivate func beginMember(_ key: String, of index: Int?) throws {
        guard let index else { throw Unsupported() }
        // Only the innermost open object takes members: an outer one's container is not used
        // while a value inside it is being written.
        if state.pointee.members.count > state.pointee.objects[index] { state.pointee.bytes.append(UInt8(ascii: ",")) }
        let start = state.pointee.bytes.count
        state.pointee.bytes.appendJSONString(key)
        state.pointee.bytes.append(UInt8(ascii: ":"))
        state.pointee.members.append((key, start, -1))
    }

    fileprivate func endMember(of index: Int?) {
        guard index != nil else { return }
        state.pointee.members[state.pointee.members.count - 1].end = state.pointee.bytes.count
    }

    /// Starts an element of the open array.
    fileprivate func beginElement() throws {
        guard case .unkeyed(let count) = state.pointee.opened else { throw Unsupported() }
        if count > 0 { state.pointee.bytes.append(UInt8(ascii: ",")) }
        state.pointee.opened = .unkeyed(count: count + 1)
    }

    fileprivate var elementCount: Int {
        if case .unkeyed(let count) = state.pointee.opened { return count }
        return 0
    }

    /// Closes object `index`, its members put in `JSONEncoder`'s `.sortedKeys` order.
    private func closeObject(_ index: Int) {
        let first = state.pointee.objects.removeLast()
        defer { state.pointee.members.removeSubrange(first...) }
        let members = state.pointee.members[first...]
        // `.sortedKeys` orders keys by their UTF-8 bytes.
        func precedes(_ left: String, _ right: String) -> Bool { left.utf8.lexicographicallyPrecedes(right.utf8) }
        let inOrder = members.indices.dropFirst().allSatisfy { precedes(members[$0 - 1].key, members[$0].key) }
        if !inOrder {
            let sorted = members.sorted { precedes($0.key, $1.key) }
            let start = members[first].start
            var region: [UInt8] = []
            region.reserveCapacity(state.pointee.bytes.count - start)
            for (position, member) in sorted.enumerated() {
                if position > 0 { region.append(UInt8(ascii: ",")) }
                region.append(contentsOf: state.pointee.bytes[member.start..<member.end])
            }
            state.pointee.bytes.replaceSubrange(start..<state.pointee.bytes.count, with: region)
        }
        state.pointee.bytes.append(UInt8(ascii: "}"))
    }

    // MARK: Scalars

    /// A member's key and colon, after a comma unless it is the object's first.
    func writeKey(_ key: StaticString, first: Bool) {
        if !first { state.pointee.bytes.append(UInt8(ascii: ",")) }
        state.pointee.bytes.append(UInt8(ascii: "\""))
        state.pointee.bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        state.pointee.bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// One byte of punctuation.
    func append(_ byte: UInt8) { state.pointee.bytes.append(byte) }

    /// Bytes written before.
    func append(contentsOf bytes: [UInt8]) { state.pointee.bytes.append(contentsOf: bytes) }

    func writeNull() { state.pointee.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    func writeBool(_ value: Bool) {
        if value {
            state.pointee.bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            state.pointee.bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    func writeInteger(_ value: some BinaryInteger) { state.pointee.bytes.appendJSONInteger(value) }

    /// As `JSONEncoder` writes a number: its shortest description, without a trailing `.0`.
    func writeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws {
        guard state.pointee.bytes.appendJSONNumber(value) else { throw Unsupported() }
    }

    /// `text` quoted, with quotes, backslashes and control characters escaped and slashes not.
    func writeString(_ text: String) { state.pointee.bytes.appendJSONString(text) }

    /// `id` in lower case, where `UUID`'s own `encode(to:)` writes its upper-case `uuidString`:
    /// every answer spells an id one way.
    func writeUUID(_ id: UUID) { state.pointee.bytes.appendJSONUUID(id) }

    /// `date` as `.iso8601` writes it: `2026-11-26T09:38:00Z`, in UTC, whole seconds.
    func writeDate(_ date: Date) throws {
        guard state.pointee.bytes.appendJSONDate(date) else { throw Unsupported() }
    }
}

// MARK: Containers

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    /// The object this container writes into; nil when the encoder had another kind open.
    let object: Int?
    var codingPath: [any CodingKey] { [] }

    private func member(_ key: Key, _ body: () throws -> Void) throws {
        try writer.beginMember(key.stringValue, of: object)
        try body()
        writer.endMember(of: object)
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key) { writer.writeNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key) { writer.writeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key) { writer.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key) { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key) { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key) { writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try member(key) { try writer.write(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, object: nil))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnkeyedWriter(writer: writer, usable: false) }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder() }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let usable: Bool
    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.elementCount }

    private func element(_ body: () throws -> Void) throws {
        guard usable else { throw JSONByteWriter.Unsupported() }
        try writer.beginElement()
        try body()
    }

    mutating func encodeNil() throws { try element { writer.writeNull() } }
    mutating func encode(_ value: Bool) throws { try element { writer.writeBool(value) } }
    mutating func encode(_ value: String) throws { try element { writer.writeString(value) } }
    mutating func encode(_ value: Double) throws { try element { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Float) throws { try element { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Int) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { try element { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { try element { writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try element { try writer.write(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedWriter<NestedKey>(writer: writer, object: nil))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(writer: writer, usable: false) }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
}

private struct SingleWriter: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let usable: Bool
    var codingPath: [any CodingKey] { [] }

    private func value(_ body: () throws -> Void) throws {
        guard usable else { throw JSONByteWriter.Unsupported() }
        try body()
    }

    mutating func encodeNil() throws { try value { writer.writeNull() } }
    mutating func encode(_ value: Bool) throws { try self.value { writer.writeBool(value) } }
    mutating func encode(_ value: String) throws { try self.value { writer.writeString(value) } }
    mutating func encode(_ value: Double) throws { try self.value { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Float) throws { try self.value { try writer.writeFloatingPoint(value) } }
    mutating func encode(_ value: Int) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { try self.value { writer.writeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try self.value { try writer.write(value) } }
}

/// What `superEncoder()` returns: every container it gives refuses, so the value goes to Foundation.
private struct UnsupportedEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(writer: JSONByteWriter(), object: nil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(writer: JSONByteWriter(), usable: false) }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(writer: JSONByteWriter(), usable: false) }
}
