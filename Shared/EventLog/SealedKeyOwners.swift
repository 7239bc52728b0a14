import Foundation

/// The owners whose keys an event's sealed values name: every `"keyId"` member of its data
/// that holds a UUID, as a sealed value writes it (compact JSON, or PostgreSQL's `jsonb` text
/// with a space after the colon).
///
/// A hint, read without decoding the event: a projection looks up the keys of a whole page
/// together before it opens anything (``KeyVault/rememberKeys(of:)``). A name it misses is
/// looked up on its own when opened, and one it finds in vain costs a row, never a wrong answer.
public enum SealedKeyOwners {
    private static let member = Array(#""keyId""#.utf8)

    /// The distinct owners named in `data`, in their first order of appearance.
    public static func named(in data: Data) -> [UUID] {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var owners: [UUID] = []
            var index = 0
            while let found = find(member, in: bytes, from: index) {
                index = found + member.count
                guard let (owner, end) = uuidValue(in: bytes, at: index) else { continue }
                index = end
                if !owners.contains(owner) { owners.append(owner) }
            }
            return owners
        }
    }

    /// The UUID string value that follows a member name at `start` (`: "…"`, with optional
    /// spaces), and where it ends.
    private static func uuidValue(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (UUID, Int)? {
        var index = skipSpaces(in: bytes, from: start)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index = skipSpaces(in: bytes, from: index + 1)
        guard index + 38 <= bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + 37] == UInt8(ascii: "\"") else { return nil }
        guard let text = String(bytes: bytes[(index + 1)..<(index + 37)], encoding: .utf8), let owner = UUID(uuidString: text) else { return nil }
        return (owner, index + 38)
    }

    private static func skipSpaces(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n") { index += 1 }
        return index
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
