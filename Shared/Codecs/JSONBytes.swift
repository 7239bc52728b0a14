import Foundation

/// JSON values written straight into a byte buffer, in the forms Foundation's `JSONEncoder`
/// writes them: responses and cursors use these rather than an encoder, whose containers
/// cost more than the bytes. A writer takes the buffer once: every access to a class's
/// stored array is checked for exclusivity at run time, and a response makes thousands.
extension [UInt8] {
    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` quoted, with quotes, backslashes and control characters escaped and slashes not;
    /// the runs between escapes are copied whole.
    public mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if run < index { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index])) }
                appendEscaped(byte)
                run = index + 1
            }
            if run < utf8.count { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...])) }
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default:
            append(contentsOf: [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)],
            ])
        }
    }

    /// `id` in lower case, quoted: the one spelling of an id in every answer (any case is
    /// accepted in a request).
    public mutating func appendJSONUUID(_ id: UUID) {
        // Written on the stack and appended once: an append a byte checks the buffer each time.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { text in
            text[0] = UInt8(ascii: "\"")
            id.writeText(into: UnsafeMutableBufferPointer(rebasing: text[1..<37]), uppercase: false)
            text[37] = UInt8(ascii: "\"")
            append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// `date` in ISO 8601, UTC, whole seconds, quoted; false (nothing written) for a year
    /// outside 1600–9999, where Foundation's calendar is Julian or the year has five digits.
    public mutating func appendJSONDate(_ date: Date) -> Bool {
        let seconds = Int64((date.timeIntervalSince1970).rounded(.down))
        let (days, secondOfDay) = (seconds.floorDiv(86_400), seconds.floorMod(86_400))
        let (year, month, day) = CivilDate.from(daysSince1970: days)
        guard (1600...9999).contains(year) else { return false }
        func two(_ value: Int64) { append(UInt8(ascii: "0") + UInt8(value / 10)); append(UInt8(ascii: "0") + UInt8(value % 10)) }
        append(UInt8(ascii: "\""))
        append(contentsOf: String(year).utf8)
        append(UInt8(ascii: "-")); two(month)
        append(UInt8(ascii: "-")); two(day)
        append(UInt8(ascii: "T")); two(secondOfDay / 3600)
        append(UInt8(ascii: ":")); two(secondOfDay / 60 % 60)
        append(UInt8(ascii: ":")); two(secondOfDay % 60)
        append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
        return true
    }

    /// `value` as `JSONEncoder` writes a number: its shortest text that reads back exactly,
    /// without a trailing `.0`; false (nothing written) when it is not finite, which JSON cannot hold.
    public mutating func appendJSONNumber<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> Bool {
        guard value.isFinite else { return false }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(contentsOf: text.utf8)
        return true
    }

    /// `value`'s decimal digits, with a minus sign when negative.
    public mutating func appendJSONInteger(_ value: some BinaryInteger) {
        append(contentsOf: value.description.utf8)
    }
}
