import Codecs
import Foundation
import Hummingbird
import ServiceKit

/// The `limit` and `cursor` of a list read in a fixed order: comments, messages and a
/// listing's requests in arrival order (the position is the last item's sequence number),
/// the reports queue in listing order (the last listing's id), a caller's conversations by
/// their last message (``ConversationAfter``). The cursor is in the shared ``OpaqueCursor``
/// format, tied to `list` (which list of which listing or conversation).
struct ListPaging<Position: CursorPosition> {
    let limit: Int
    /// Items after this position; nil from the first.
    let after: Position?
    let list: String

    /// Reads `limit` (1–100, default 50) and `cursor`; 400 listing each bad one.
    init(_ request: Request, list: String) throws {
        var problems: [String: [String]] = [:]
        let limit = request.query("limit").map { Int($0) } ?? 50
        if limit == nil || !(1...100).contains(limit!) { problems["limit"] = ["must be from 1 to 100"] }
        var after: Position?
        if let text = request.query("cursor") {
            do {
                after = try OpaqueCursor.decode(text, as: Position.self, query: list)
            } catch .otherQuery {
                problems["cursor"] = ["belongs to another list; ask for the first page again"]
            } catch {
                problems["cursor"] = ["is not a cursor of this list"]
            }
        }
        guard problems.isEmpty, let limit else { throw Problem.malformed("The query has invalid fields.", errors: problems) }
        self.limit = limit
        self.after = after
        self.list = list
    }

    /// The cursor of the page after the one that ended with `position`, when there is more.
    func nextCursor(lastShown position: Position?) -> String? {
        position.map { OpaqueCursor.encode($0, query: list) }
    }
}

/// Comments and messages: items after a sequence number (0 from the first).
typealias SequencePaging = ListPaging<Int64>

extension ListPaging<Int64> {
    /// The sequence number to read after: 0 from the first.
    var afterSequence: Int64 { after ?? 0 }
}

/// The reports queue's position: the last listing shown.
struct ListingAfter: CursorPosition {
    var listing: UUID

    func appendCursorJSON(to json: inout [UInt8]) {
        CursorJSONObject.write(to: &json) { $0.member("listing", listing) }
    }
}

/// A caller's conversations, newest message first: the last conversation shown, by the time
/// of its last message and then its id (both descending).
struct ConversationAfter: CursorPosition, Sendable {
    var lastMessageAt: Double
    var conversation: String

    func appendCursorJSON(to json: inout [UInt8]) {
        CursorJSONObject.write(to: &json) { object in
            object.member("conversation", conversation)
            object.member("lastMessageAt", lastMessageAt)
        }
    }
}
