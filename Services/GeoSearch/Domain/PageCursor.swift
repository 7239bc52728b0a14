import Codecs
import Foundation

/// The opaque, URL-safe `cursor` of a result list: the position of the last item of a page,
/// bound to its sort order and to the query it came from, in the shared ``OpaqueCursor``
/// format. The next page is every item whose position that one `precedes`.
///
/// Edits, truncation and corruption are caught by its checksum, and a cursor is refused with
/// any other sort order or query.
public enum PageCursor {
    /// What a cursor holds.
    private struct Stored: CursorPosition {
        var order: ResultOrder
        var value: Double
        var id: UUID

        func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                object.member("id", id)
                object.member("order", order.rawValue)
                object.member("value", value)
            }
        }
    }

    /// The cursor after `position`. `queryKey` is the query's canonical text (every parameter
    /// but `limit` and `cursor`); the cursor is only accepted back with the same key.
    public static func encode(_ position: PagePosition, queryKey: String) -> String {
        OpaqueCursor.encode(Stored(order: position.order, value: position.value, id: position.id), query: queryKey)
    }

    /// The position a cursor names, if it was made by `encode` for this `order` and `queryKey`;
    /// otherwise `.invalid` with a `cursor` problem that says which.
    public static func decode(_ text: String, order: ResultOrder, queryKey: String) throws(GeoSearchError) -> PagePosition {
        let stored: Stored
        do {
            stored = try OpaqueCursor.decode(text, as: Stored.self, query: queryKey)
        } catch .otherQuery {
            throw problem("belongs to another query; ask for the first page again")
        } catch {
            throw problem("is not a cursor from this service, or was altered")
        }
        guard stored.value.isFinite else { throw problem("is not a cursor from this service, or was altered") }
        guard stored.order == order else { throw problem("belongs to a list in another sort order") }
        return PagePosition(order: order, value: stored.value, id: stored.id)
    }

    private static func problem(_ text: String) -> GeoSearchError {
        .invalid(["cursor": [text]])
    }
}
