import Codecs
import Foundation

/// Where a feed page ended: the sort key and the listing's sequence number of the last item
/// shown, and the query it belongs to. Opaque to clients, in the shared ``OpaqueCursor``
/// format, tied to `queryHash`.
///
/// The next page starts strictly after (key, sequence) in the query's order and direction,
/// so a listing posted meanwhile never shifts the pages: it sorts before the cursor (newest
/// first) or lands in a page not yet read (oldest first, and the other keys).
public struct FeedCursor: Sendable, Hashable {
    /// The last item's sort key: posted time, price, title, or relevance rank, as text.
    public var key: String
    public var sequence: Int64
    public var queryHash: String

    public init(key: String, sequence: Int64, queryHash: String) {
        self.key = key
        self.sequence = sequence
        self.queryHash = queryHash
    }

    private struct Position: CursorPosition {
        var key: String
        var sequence: Int64

        func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                object.member("key", key)
                object.member("sequence", sequence)
            }
        }
    }

    /// Parses the text form; nil for anything this type did not write for `queryHash`.
    public init?(_ text: String, queryHash: String) {
        guard let position = try? OpaqueCursor.decode(text, as: Position.self, query: queryHash) else { return nil }
        self.init(key: position.key, sequence: position.sequence, queryHash: queryHash)
    }

    /// The text form a client sends back.
    public var text: String {
        OpaqueCursor.encode(Position(key: key, sequence: sequence), query: queryHash)
    }
}
