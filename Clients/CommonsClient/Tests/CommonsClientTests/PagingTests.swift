import CommonsClient
import Foundation
import Testing

@Suite("pages")
struct PagingTests {
    static func reportsPage(_ ids: [String], next: String?) -> HTTPResponseData {
        let items = ids.map { #"{"listingId":"\#($0)","title":"Chair","status":"hidden","reports":[]}"# }.joined(separator: ",")
        return .json(200, #"{"items":[\#(items)]"# + (next.map { #","nextCursor":"\#($0)"}"# } ?? "}"))
    }

    @Test("every reported listing is read page after page, each page asked for with the cursor the one before gave")
    func allReportsFollowsCursors() async throws {
        let transport = ScriptedTransport([
            .respond(Self.reportsPage(["a", "b"], next: "c1")), .respond(Self.reportsPage(["c"], next: "c2")),
            .respond(Self.reportsPage([], next: nil)),
        ])
        let commons = CommonsClient(
            baseURL: URL(string: "http://gateway.test")!, tokenStore: RecordingTokenStore(signedIn), transport: transport, retry: .immediate)
        let listings = try await commons.listings.allReports()
        #expect(listings.map(\.listingId) == ["a", "b", "c"])
        let queries = transport.sent.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] }
        #expect(queries.map { $0.first { $0.name == "cursor" }?.value } == [nil, "c1", "c2"])
        #expect(queries.allSatisfy { $0.first { $0.name == "limit" }?.value == "100" })
    }

    @Test("every conversation about a listing is read page after page, with the listing and each cursor asked for")
    func allConversationsFollowsCursors() async throws {
        func page(_ ids: [String], next: String?) -> String {
            let items = ids.map {
                #"{"id":"\#($0)","listingId":"l","ownerId":"o","requesterId":"r","lastMessageAt":"2026-11-29T07:00:00Z","unreadCount":1}"#
            }
            return #"{"items":[\#(items.joined(separator: ","))],"unreadCount":3"# + (next.map { #","nextCursor":"\#($0)"}"# } ?? "}")
        }
        let transport = ScriptedTransport([.respond(.json(200, page(["a", "b"], next: "c1"))), .respond(.json(200, page(["c"], next: nil)))])
        let commons = CommonsClient(
            baseURL: URL(string: "http://gateway.test")!, tokenStore: RecordingTokenStore(signedIn), transport: transport, retry: .immediate)
        let listing = UUID()
        let conversations = try await commons.listings.allConversations(listing: listing)
        #expect(conversations.map(\.id) == ["a", "b", "c"])
        let queries = transport.sent.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] }
        #expect(queries.map { $0.first { $0.name == "cursor" }?.value } == [nil, "c1"])
        #expect(queries.allSatisfy { $0.first { $0.name == "listing" }?.value == listing.uuidString.lowercased() })
    }

    @Test("a product's whole price history is read page after page, of the store asked for, with each cursor")
    func pricesFollowCursors() async throws {
        let store = UUID()
        func page(_ amounts: [Int], next: String?) -> String {
            let items = amounts.map {
                #"{"storeId":"\#(store.uuidString.lowercased())","price":{"amountMinor":\#($0),"currency":"EUR"},"since":"2026-12-01T07:00:00Z"}"#
            }
            return #"{"items":[\#(items.joined(separator: ","))]"# + (next.map { #","nextCursor":"\#($0)"}"# } ?? "}")
        }
        let transport = ScriptedTransport([
            .respond(.json(200, page([119, 105], next: "p1"))), .respond(.json(200, page([], next: "p2"))),
            .respond(.json(200, page([99], next: nil))),
        ])
        let commons = CommonsClient(
            baseURL: URL(string: "http://gateway.test")!, tokenStore: RecordingTokenStore(signedIn), transport: transport, retry: .immediate)
        let prices = try await commons.lists.prices(UUID(), store: store)
        #expect(prices.map { $0.price?.amountMinor } == [119, 105, 99])
        let queries = transport.sent.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] }
        #expect(queries.map { $0.first { $0.name == "cursor" }?.value } == [nil, "p1", "p2"])
        #expect(queries.allSatisfy { $0.first { $0.name == "storeId" }?.value == store.uuidString.lowercased() })
    }

    @Test("Page.all reads every page of any paged list, following nextCursor until a page has none")
    func pageAllFollowsAnyList() async throws {
        let pages = ["": Page(items: [1, 2], nextCursor: "x"), "x": Page(items: [], nextCursor: "y"), "y": Page(items: [3], nextCursor: nil)]
        var asked: [String?] = []
        let items = try await Page.all { cursor in
            asked.append(cursor)
            return try #require(pages[cursor ?? ""])
        }
        #expect(items == [1, 2, 3])
        #expect(asked == [nil, "x", "y"])
    }

    @Test("Page.all throws what reading a page throws, and reads no page after it")
    func pageAllStopsAtAFailure() async throws {
        struct Refused: Error {}
        var asked = 0
        await #expect(throws: Refused.self) {
            _ = try await Page<Int>.all { cursor in
                asked += 1
                guard cursor == nil else { throw Refused() }
                return Page(items: [1], nextCursor: "next")
            }
        }
        #expect(asked == 2)
    }
}
