import Codecs
import Hummingbird
import ServiceKit

/// The `limit` and `cursor` of a list read in arrival order (comments, messages). The cursor
/// holds the last item's sequence number, in the shared ``OpaqueCursor`` format, tied to
/// `list` (which list of which listing or conversation).
struct SequencePaging {
    let limit: Int
    /// Items after this sequence number (0: from the first).
    let after: Int64
    let list: String

    /// Reads `limit` (1–100, default 50) and `cursor`; 400 listing each bad one.
    init(_ request: Request, list: String) throws {
        var problems: [String: [String]] = [:]
        let limit = request.query("limit").map { Int($0) } ?? 50
        if limit == nil || !(1...100).contains(limit!) { problems["limit"] = ["must be from 1 to 100"] }
        var after: Int64 = 0
        if let text = request.query("cursor") {
            do {
                after = try OpaqueCursor.decode(text, as: Int64.self, query: list)
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

    /// The cursor of the page after the one that ended with `sequence`, when there is more.
    func nextCursor(lastShown sequence: Int64?) -> String? {
        sequence.map { OpaqueCursor.encode($0, query: list) }
    }
}
