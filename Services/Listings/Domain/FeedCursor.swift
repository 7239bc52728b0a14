import Foundation

/// Where a feed page ended: the sort key and the listing's sequence number of the last item
/// shown, and the query it belongs to. Opaque to clients (base64url JSON).
///
/// The next page starts strictly after (key, sequence) in the query's order, so a listing
/// posted meanwhile never shifts the pages: it sorts before the cursor (newest first) or
/// lands in a page not yet read.
public struct FeedCursor: Sendable, Equatable, Codable {
    /// The last item's sort key: posted time, price, title, or relevance rank, as text.
    public var key: String
    public var sequence: Int64
    public var queryHash: String

    public init(key: String, sequence: Int64, queryHash: String) {
        self.key = key
        self.sequence = sequence
        self.queryHash = queryHash
    }

    /// Parses the text form; nil for anything this type did not write.
    public init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        guard text.count <= 512, let data = Data(base64Encoded: base64),
              let cursor = try? JSONDecoder().decode(FeedCursor.self, from: data)
        else { return nil }
        self = cursor
    }

    /// The text form a client sends back.
    public var text: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
