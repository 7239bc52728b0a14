import Crypto
import Foundation

/// The one format of every paged list's `cursor`: where the last item of a page stood,
/// opaque to clients, tied to the query that made it, and tamper-evident.
///
/// The text is base64url of `version (1) ‖ query fingerprint (4) ‖ position (JSON) ‖ checksum (8)`,
/// the fingerprint and checksum being truncated SHA-256s (of the query's canonical text,
/// and of everything before the checksum). The checksum is not a signature: whoever reads
/// this code can forge a cursor, and gains nothing by it, because a cursor only says where
/// the next page of the same list starts, and every read is checked as a first page is.
public enum OpaqueCursor {
    /// Why a cursor was refused; each service words its own 400 from it.
    public enum Refusal: Error, Equatable, Sendable {
        /// Not made here, altered, truncated, or of an older format.
        case malformed
        /// Made for another query (other filters, order or words): the client should ask for
        /// the first page again.
        case otherQuery
    }

    /// The longest cursor accepted, in characters: a position is a few small fields.
    public static let maximumLength = 1_024

    /// The cursor after `position`, for the query whose canonical text is `query` (every
    /// parameter but the page size and the cursor).
    public static func encode(_ position: some CursorPosition, query: String) -> String {
        var body = [version] + fingerprint(query)
        position.appendCursorJSON(to: &body)
        return Base64URL.encode(body + checksum(body))
    }

    /// The position `text` holds, if ``encode(_:query:)`` made it for `query`.
    public static func decode<Position: Decodable>(_ text: String, as type: Position.Type, query: String) throws(Refusal) -> Position {
        // The text must be exactly what encode writes: no padding, and no spare bits in
        // the last character that an edit could hide in.
        guard text.utf8.count <= maximumLength, let bytes = Base64URL.decode(text), Base64URL.encode(bytes) == text,
            bytes.count > 1 + 4 + 8, bytes[0] == version
        else { throw .malformed }
        let body = Array(bytes.dropLast(8))
        guard Array(bytes.suffix(8)) == checksum(body) else { throw .malformed }
        guard Array(body[1..<5]) == fingerprint(query) else { throw .otherQuery }
        guard let position = try? JSONDecoder().decode(Position.self, from: Data(body[5...])) else { throw .malformed }
        return position
    }

    private static let version: UInt8 = 2

    private static func fingerprint(_ query: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(("commons cursor query|" + query).utf8)).prefix(4))
    }

    private static func checksum(_ body: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: body).prefix(8))
    }
}
