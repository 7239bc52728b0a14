import Foundation
import ListingsDomain
import Testing

@Suite("feed queries")
struct FeedQueryTests {
    @Test("every bad parameter is reported at once")
    func everyBadParameter() {
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["category": "Cars"]) }
        do throws(ListingError) {
            _ = try FeedQuery(parameters: ["category": "Cars", "free": "yes", "minPrice": "-1", "status": "gone", "sort": "size",
                                           "limit": "1000", "author": "you", "colour": "red"])
            Issue.record("no error")
        } catch {
            guard case .invalid(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(Set(problems.keys) == ["category", "free", "minPrice", "status", "sort", "limit", "author", "colour"])
        }
    }

    @Test("keywords become quoted terms and sort by relevance; withdrawn needs author=me")
    func keywords() throws {
        let query = try FeedQuery(parameters: ["q": "blue sofa\" OR *"])
        #expect(query.keywords == "\"blue\" \"sofa\" \"OR\"")
        #expect(query.sort == .relevance)
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["status": "withdrawn"]) }
        #expect(try FeedQuery(parameters: ["status": "withdrawn", "author": "me"]).statuses == [.withdrawn])
    }

    @Test("a cursor only continues the query it came from")
    func cursorBinding() throws {
        let query = try FeedQuery(parameters: ["category": "Books"])
        let cursor = FeedCursor(key: "12.5", sequence: 7, queryHash: query.fingerprint)
        #expect(try FeedQuery(parameters: ["category": "Books", "cursor": cursor.text]).cursor == cursor)
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["category": "Toys", "cursor": cursor.text]) }
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["cursor": "not-a-cursor"]) }
    }
}
