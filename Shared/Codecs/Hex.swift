extension Sequence<UInt8> {
    /// The bytes in lowercase hexadecimal, two digits each: what `String(format: "%02x")` per
    /// byte writes, without Foundation's formatter, which cost a fortieth of a listing post's CPU
    /// (issue 17) in the idempotency key's and the request body's hashes.
    public var lowercaseHex: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(lowercaseHexDigit(byte >> 4))
            text.append(lowercaseHexDigit(byte & 0x0F))
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The ASCII lowercase hexadecimal digit of a value from 0 to 15.
func lowercaseHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}
