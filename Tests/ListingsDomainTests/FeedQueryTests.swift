import Foundation
import ListingsDomain
import Testing

@Suite("feed queries")
struct FeedQueryTests {
    @Test("every bad parameter is reported at once")
    func everyBadParameter() {
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["category": "Cars"], terms: nil) }
        do throws(ListingError) {
            _ = try FeedQuery(
                parameters: [
                    "category": "Cars", "free": "yes", "minPrice": "-1", "status": "gone", "sort": "size",
                    "limit": "1000", "author": "you", "colour": "red",
                ], terms: nil)
            Issue.record("no error")
        } catch {
            guard case .invalid(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(Set(problems.keys) == ["category", "free", "minPrice", "status", "sort", "limit", "author", "colour"])
        }
    }

    @Test("search terms sort by relevance, and relevance needs them; withdrawn matches only with author=me")
    func keywords() throws {
        let query = try FeedQuery(parameters: ["q": "read by the service"], terms: ["blue", "sofa"])
        #expect(query.terms == ["blue", "sofa"] && query.sort == .relevance)
        #expect(try FeedQuery(parameters: ["sort": "title"], terms: ["blue"]).sort == .title)
        #expect(throws: ListingError.invalid(["sort": ["relevance needs q"]])) { try FeedQuery(parameters: ["sort": "relevance"], terms: nil) }
        #expect(try FeedQuery(parameters: ["status": "withdrawn,available"], terms: nil).statuses == [.available], "an owner's status matches none")
        #expect(try FeedQuery(parameters: ["status": "hidden"], terms: nil).statuses == [])
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["status": "available,"], terms: nil) }
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

    @Test("each key runs its usual way unless order turns it; relevance runs one way only")
    func orders() throws {
        #expect(try FeedQuery(parameters: [:], terms: nil).order == .desc)
        #expect(try FeedQuery(parameters: ["sort": "price"], terms: nil).order == .asc)
        #expect(try FeedQuery(parameters: ["sort": "title"], terms: nil).order == .asc)
        #expect(try FeedQuery(parameters: ["q": "x"], terms: ["sofa"]).order == .desc)
        let cheapestLast = try FeedQuery(parameters: ["sort": "price", "order": "desc"], terms: nil)
        #expect(cheapestLast.sort == .price && cheapestLast.order == .desc && cheapestLast.isReversed)
        let oldestFirst = try FeedQuery(parameters: ["order": "asc"], terms: nil)
        #expect(oldestFirst.sort == .recent && oldestFirst.isReversed)
        #expect(try FeedQuery(parameters: ["sort": "title", "order": "asc"], terms: nil).isReversed == false)
        #expect(throws: ListingError.invalid(["order": ["must be asc or desc"]])) { try FeedQuery(parameters: ["order": "up"], terms: nil) }
        #expect(throws: ListingError.invalid(["order": ["must be desc when sorting by relevance (best match first)"]])) {
            try FeedQuery(parameters: ["order": "asc"], terms: ["sofa"])
        }
        #expect(try FeedQuery(parameters: ["q": "x", "sort": "price", "order": "desc"], terms: ["sofa"]).isReversed)
    }

    @Test("a cursor continues only its own direction, and cursors from before order existed still work")
    func cursorDirection() throws {
        let usual = try FeedQuery(parameters: ["sort": "price"], terms: nil)
        // The hash cursors of sort=price carried before order existed.
        #expect(usual.fingerprint == "jp3sim726fun")
        #expect(try FeedQuery(parameters: ["sort": "price", "order": "asc"], terms: nil).fingerprint == usual.fingerprint)
        let reversed = try FeedQuery(parameters: ["sort": "price", "order": "desc"], terms: nil)
        #expect(reversed.fingerprint != usual.fingerprint)
        let cursor = FeedCursor(key: "500", sequence: 3, queryHash: reversed.fingerprint)
        #expect(try FeedQuery(parameters: ["sort": "price", "order": "desc", "cursor": cursor.text], terms: nil).cursor == cursor)
        #expect(throws: ListingError.self) { try FeedQuery(parameters: ["sort": "price", "cursor": cursor.text], terms: nil) }
        let old = FeedCursor(key: "500", sequence: 3, queryHash: usual.fingerprint)
        #expect(try FeedQuery(parameters: ["sort": "price", "order": "asc", "cursor": old.text], terms: nil).cursor == old)
    }
}
