import Foundation

/// One parameter of a statement, as libpq sends it: text (PostgreSQL parses it as the
/// parameter's type) or, for `jsonb`, the binary format, whose length libpq takes as given.
struct LibPQParameter: Sendable {
    /// The bytes, without a terminating NUL; nil for SQL null.
    let bytes: [UInt8]?
    let isBinary: Bool

    static let null = LibPQParameter(bytes: nil, isBinary: false)

    static func text(_ value: String) -> LibPQParameter { LibPQParameter(bytes: Array(value.utf8), isBinary: false) }

    static func integer(_ value: some BinaryInteger) -> LibPQParameter { .text(String(value)) }

    static func uuid(_ value: UUID) -> LibPQParameter { .text(value.uuidString) }

    /// A `jsonb` in the binary format: the version byte, then the text as the writer gave it.
    static func jsonb(_ text: Data) -> LibPQParameter {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count + 1)
        bytes.append(1)
        bytes.append(contentsOf: text)
        return LibPQParameter(bytes: bytes, isBinary: true)
    }

    /// An array in PostgreSQL's text form, each element quoted (`{"a","b\"c"}`).
    static func array(_ elements: some Sequence<some StringProtocol>) -> LibPQParameter {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            appendQuoted(element.utf8, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return LibPQParameter(bytes: bytes, isBinary: false)
    }

    /// An array of JSON documents (`jsonb[]`) in the text form.
    static func jsonArray(_ documents: [Data]) -> LibPQParameter {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, document) in documents.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendQuoted(document, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return LibPQParameter(bytes: bytes, isBinary: false)
    }

    private static func appendQuoted(_ element: some Sequence<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in element {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a text parameter holds a NUL byte, which libpq's text form cannot carry.
    var holdsNUL: Bool { !isBinary && (bytes?.contains(0) ?? false) }
}

extension [LibPQParameter] {
    /// Calls `body` with the parameters as libpq's arrays: values (NUL-terminated), lengths
    /// and formats, valid for the call alone.
    func withLibPQArrays<Result>(
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> Result
    ) rethrows -> Result {
        var storage = [UInt8]()
        var offsets = [Int?]()
        var lengths = [Int32]()
        var formats = [Int32]()
        storage.reserveCapacity(reduce(0) { $0 + ($1.bytes?.count ?? 0) + 1 })
        for parameter in self {
            formats.append(parameter.isBinary ? 1 : 0)
            guard let bytes = parameter.bytes else {
                offsets.append(nil)
                lengths.append(0)
                continue
            }
            offsets.append(storage.count)
            lengths.append(Int32(bytes.count))
            storage.append(contentsOf: bytes)
            storage.append(0)
        }
        return try storage.withUnsafeBufferPointer { storage in
            let base = storage.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let values = offsets.map { offset -> UnsafePointer<CChar>? in
                guard let offset, let base else { return nil }
                return base + offset
            }
            return try values.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer { formats in
                        try body(Int32(count), values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
