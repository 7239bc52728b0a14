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

    /// A `text[]` in PostgreSQL's binary format.
    static func array(_ elements: some Sequence<some StringProtocol>) -> LibPQParameter {
        binaryArray(of: .text, elements.map { Array($0.utf8) })
    }

    static func uuidArray(_ ids: [UUID]) -> LibPQParameter {
        binaryArray(of: .uuid, ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0) } })
    }

    static func int4Array(_ values: [Int32]) -> LibPQParameter {
        binaryArray(of: .int4, values.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
    }

    static func int8Array(_ values: [Int64]) -> LibPQParameter {
        binaryArray(of: .int8, values.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
    }

    /// A `jsonb[]`: each document in `jsonb`'s binary form (the version byte, then the text).
    static func jsonbArray(_ documents: [Data]) -> LibPQParameter {
        binaryArray(of: .jsonb, documents.map { [1] + $0 })
    }

    /// A one-dimensional array without nulls in PostgreSQL's binary format (`array_recv`): the
    /// dimensions, the element type, then each element's length and bytes. The server parses
    /// no text and unquotes nothing; `bench eventlog` found text arrays of bodies costing it
    /// a tenth more per event in 100-event appends.
    private static func binaryArray(of type: PostgresType, _ elements: [[UInt8]]) -> LibPQParameter {
        var bytes = [UInt8]()
        bytes.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + $1.count })
        func append(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        append(elements.isEmpty ? 0 : 1)
        append(0)
        append(Int32(bitPattern: type.rawValue))
        if !elements.isEmpty {
            append(Int32(elements.count))
            append(1)
        }
        for element in elements {
            append(Int32(element.count))
            bytes.append(contentsOf: element)
        }
        return LibPQParameter(bytes: bytes, isBinary: true)
    }

    /// An array in PostgreSQL's text form, each element quoted, for a statement whose
    /// parameter's type the server infers from a cast (`$1::float8[]`).
    static func textArray(_ elements: some Sequence<String>) -> LibPQParameter {
        .text(
            "{"
                + elements.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(
                    separator: ",") + "}")
    }

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
