import Codecs
import Foundation

/// The opaque `cursor` of a list: the sort value and id of the last item of a page, so the
/// next page starts right after it whatever was added meanwhile. In the shared
/// ``OpaqueCursor`` format, tied to its list (`list`: which list, with its filters).
public enum ListCursor {
    private struct Position: CursorPosition {
        var sortKey: String
        var id: UUID

        func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                object.member("id", id)
                object.member("sortKey", sortKey)
            }
        }
    }

    public static func encode(sortKey: String, id: UUID, list: String) -> String {
        OpaqueCursor.encode(Position(sortKey: sortKey, id: id), query: list)
    }

    /// The sort value and id, or the reason the text is not a cursor of `list`.
    public static func decode(_ text: String, list: String) throws(OpaqueCursor.Refusal) -> (sortKey: String, id: UUID) {
        let position = try OpaqueCursor.decode(text, as: Position.self, query: list)
        return (position.sortKey, position.id)
    }
}
