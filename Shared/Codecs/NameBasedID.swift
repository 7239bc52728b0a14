import Crypto
import Foundation

/// UUIDs that are always the same for the same name: the first 16 bytes of a SHA-256, with
/// the variant bits and a version nibble set. Ids already in logs keep their bits, so the
/// version is the caller's: ``Version/v5`` for most, ``Version/v8`` where that was used.
public enum NameBasedID {
    /// The version nibble written into byte 6.
    public enum Version: UInt8, Sendable {
        /// The version-5 layout (name-based), though hashed with SHA-256 rather than SHA-1.
        case v5 = 0x50
        /// Version 8, "custom".
        case v8 = 0x80
    }

    /// The id of `name`: its SHA-256, shaped as a UUID of `version`.
    public static func make(_ name: String, version: Version) -> UUID {
        make(digest: Array(SHA256.hash(data: Data(name.utf8))), version: version)
    }

    /// The id made of the first 16 bytes of `digest` (a hash computed elsewhere, such as a
    /// photo's content address), shaped as a UUID of `version`.
    public static func make(digest: [UInt8], version: Version) -> UUID {
        var bytes = Array(digest.prefix(16)) + Array(repeating: 0, count: max(0, 16 - digest.count))
        bytes[6] = (bytes[6] & 0x0F) | version.rawValue
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
