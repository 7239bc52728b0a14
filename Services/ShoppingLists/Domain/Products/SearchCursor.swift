import Codecs
import Foundation

/// The opaque `cursor` of a product list: where the last item of a page stood in the sort
/// order (its rank or its name, then its row), tied to the query it came from, in the
/// shared ``OpaqueCursor`` format. A cursor that was altered or belongs to another query is refused.
public enum SearchCursor {
    public struct Position: CursorPosition, Sendable, Hashable {
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

        public func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                object.member("name", name)
                object.member("rank", rank)
                object.member("row", row)
            }
        }
    }

    public static func encode(_ position: Position, queryKey: String) -> String {
        OpaqueCursor.encode(position, query: queryKey)
    }

    /// The position, if `text` is a cursor that `encode` made for this query.
    public static func decode(_ text: String, queryKey: String) -> Position? {
        guard let position = try? OpaqueCursor.decode(text, as: Position.self, query: queryKey), position.rank?.isFinite ?? true else { return nil }
        return position
    }
}
