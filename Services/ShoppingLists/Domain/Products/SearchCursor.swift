import Foundation

/// The opaque `cursor` of a product list: where the last item of a page stood in the sort
/// order (its rank or its name, then its row), tied to the query it came from. A cursor
/// that was altered or belongs to another query is refused.
public enum SearchCursor {
    public struct Position: Codable, Sendable, Equatable {
        /// The FTS rank of the last item, when searching by words.
        public var rank: Double?
        /// The name of the last item, when listing by name.
        public var name: String?
        /// The last item's row, which breaks ties.
        public var row: Int64

        public init(rank: Double? = nil, name: String? = nil, row: Int64) {
            self.rank = rank
            self.name = name
            self.row = row
        }
    }

    private struct Payload: Codable {
        var p: Position
        var q: UInt64
        var c: UInt64
    }

    public static func encode(_ position: Position, queryKey: String) -> String {
        let fingerprint = fnv1a(Array(queryKey.utf8))
        let payload = Payload(p: position, q: fingerprint, c: checksum(position, fingerprint))
        let data = (try? JSONEncoder().encode(payload)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The position, if `text` is a cursor that `encode` made for this query.
    public static func decode(_ text: String, queryKey: String) -> Position? {
        guard text.count <= 400 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let payload = try? JSONDecoder().decode(Payload.self, from: data),
              payload.q == fnv1a(Array(queryKey.utf8)), payload.c == checksum(payload.p, payload.q),
              payload.p.rank?.isFinite ?? true
        else { return nil }
        return payload.p
    }

    private static func checksum(_ position: Position, _ fingerprint: UInt64) -> UInt64 {
        let text = "\(position.rank?.bitPattern ?? 0)|\(position.name ?? "")|\(position.row)|\(fingerprint)"
        return fnv1a(Array(text.utf8))
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
