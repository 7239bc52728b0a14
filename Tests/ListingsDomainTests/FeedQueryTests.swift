import Foundation
import ListingsDomain
import Testing

@Suite("feed queries")
struct FeedQueryTests {
    @Test("every bad parameter is reported at once")
    func everyBadParameter() {
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["category": "Cars"], terms: nil) }
        do throws(ListingError) {
            _ = try FeedQuery(parameters: ["category": "Cars", "free": "yes", "minPrice": "-1", "status": "gone", "sort": "size",
                                           "limit": "1000", "author": "you", "colour": "red"], terms: nil)
            Issue.record("no error")
        } catch {
            guard case .invalid(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(Set(problems.keys) == ["category", "free", "minPrice", "status", "sort", "limit", "author", "colour"])
        }
    }

    @Test("search terms sort by relevance, and relevance needs them; withdrawn needs author=me")
    func keywords() throws {
        let query = try FeedQuery(parameters: ["q": "read by the service"], terms: ["blue", "sofa"])
        #expect(query.terms == ["blue", "sofa"] && query.sort == .relevance)
        #expect(try FeedQuery(parameters: ["sort": "title"], terms: ["blue"]).sort == .title)
        #expect(throws: ListingError.invalid(["sort": ["relevance needs q"]])) { try FeedQuery(parameters: ["sort": "relevance"], terms: nil) }
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["status": "withdrawn"], terms: nil) }
        #expect(try FeedQuery(parameters: ["status": "withdrawn", "author": "me"], terms: nil).statuses == [.withdrawn])
    }

    @Test("a cursor only continues the query it came from")
    func cursorBinding() throws {
        let query = try FeedQuery(parameters: ["category": "Books"], terms: nil)
        let cursor = FeedCursor(key: "12.5", sequence: 7, queryHash: query.fingerprint)
        #expect(try FeedQuery(parameters: ["category": "Books", "cursor": cursor.text], terms: nil).cursor == cursor)
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["category": "Toys", "cursor": cursor.text], terms: nil) }
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["cursor": "not-a-cursor"], terms: nil) }
    }
}
