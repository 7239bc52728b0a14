import Geo
import Foundation

/// The opaque, URL-safe `cursor` of a result list: the position of the last item of a page,
/// bound to its sort order and to the query it came from. The next page is every item whose
/// position that one `precedes`.
///
/// Edits, truncation and corruption are caught by a checksum, and a cursor is refused with
/// any other sort order or query. The checksum is not a signature: whoever reads this code
/// can forge a cursor, and gains nothing by it, because a cursor only says where the next
/// page of the same public, filtered list starts.
public enum PageCursor {
    /// The cursor after `position`. `queryKey` is the query's canonical text (every parameter
    /// but `limit` and `cursor`); the cursor is only accepted back with the same key.
    public static func encode(_ position: PagePosition, queryKey: String) -> String {
        var payload: [UInt8] = [formatVersion, orderCode(position.order)]
        payload += bigEndianBytes(position.value.bitPattern, count: 8)
        payload += position.id.bytes
        payload += bigEndianBytes(fingerprint(queryKey), count: fingerprintBytes)
        payload += bigEndianBytes(checksum(payload), count: checksumBytes)
        return Data(payload).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// The position a cursor names, if it was made by `encode` for this `order` and `queryKey`;
    /// otherwise `.invalid` with a `cursor` problem that says which.
    public static func decode(_ text: String, order: ResultOrder, queryKey: String) throws(GeoSearchError) -> PagePosition {
        guard let payload = payload(of: text),
              payload[0] == formatVersion,
              let encodedOrder = ResultOrder.allCases.first(where: { orderCode($0) == payload[1] })
        else { throw problem("is not a cursor from this service, or was altered") }
        let value = Double(bitPattern: integer(payload[2..<10]))
        guard value.isFinite else { throw problem("is not a cursor from this service, or was altered") }
        guard encodedOrder == order else { throw problem("belongs to a list in another sort order") }
        guard integer(payload[26..<30]) == fingerprint(queryKey) else {
            throw problem("belongs to another query; ask for the first page again")
        }
        let id = payload[10..<26].withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return PagePosition(order: order, value: value, id: id)
    }

    // version, order, value, id, query fingerprint, checksum: 36 bytes, a multiple of 3, so
    // the 48 characters of base64 carry no padding bits that an edit could hide in.
    private static let formatVersion: UInt8 = 1
    private static let fingerprintBytes = 4
    private static let checksumBytes = 6
    private static let payloadBytes = 36
    private static let encodedLength = 48

    /// The payload, if the text is the right length in the URL-safe alphabet and its checksum holds.
    private static func payload(of text: String) -> [UInt8]? {
        guard text.utf8.count == encodedLength,
              text.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }),
              let data = Data(base64Encoded: text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))
        else { return nil }
        let payload = [UInt8](data)
        guard payload.count == payloadBytes else { return nil }
        let body = Array(payload[..<(payloadBytes - checksumBytes)])
        return integer(payload[(payloadBytes - checksumBytes)...]) == checksum(body) ? payload : nil
    }

    private static func orderCode(_ order: ResultOrder) -> UInt8 {
        switch order {
        case .distance: 1
        case .recent: 2
        }
    }

    private static func fingerprint(_ queryKey: String) -> UInt64 {
        StableHash.mix(StableHash.fnv1a64(queryKey.utf8)) >> 32
    }

    private static func checksum(_ body: [UInt8]) -> UInt64 {
        StableHash.mix(StableHash.fnv1a64(body)) >> 16
    }

    private static func problem(_ text: String) -> GeoSearchError {
        .invalid(["cursor": [text]])
    }
}

/// The low `count` bytes of `value`, most significant first.
private func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

/// The bytes read as one big-endian unsigned number.
private func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}

private extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
