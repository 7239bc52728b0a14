import Foundation
import GeoSearchDomain
import Testing

@Suite("page cursors")
struct PageCursorTests {
    static let queryKey = "lat=37.7749&lon=-122.4194&radius=5000&category=Furniture"
    static let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test("a cursor round-trips every bit of its position, in both orders")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 11)
        let positions: [PagePosition] = [
            .distance(0, id: random.uuid()),
            .distance(1_234.567_890_123_4, id: random.uuid()),
            .distance(19_999_999.999, id: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))),
            .recent(Date(timeIntervalSince1970: 1_767_225_600.123_456), id: random.uuid()),
            .recent(Date(timeIntervalSince1970: -86_400.5), id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))),
        ]
        for position in positions {
            let cursor = PageCursor.encode(position, queryKey: Self.queryKey)
            #expect(try PageCursor.decode(cursor, order: position.order, queryKey: Self.queryKey) == position)
            #expect(cursor.allSatisfy(Self.urlSafe.contains), "\(cursor)")
        }
    }

    @Test("a cursor with any one character changed is refused as a cursor problem")
    func tampering() throws {
        let cursor = PageCursor.encode(.distance(812.25, id: UUID()), queryKey: Self.queryKey)
        var characters = Array(cursor)
        for index in characters.indices {
            let original = characters[index]
            for replacement in Self.urlSafe where replacement != original {
                characters[index] = replacement
                #expect(throws: GeoSearchError.invalid(["cursor": ["is not a cursor from this service, or was altered"]])) {
                    try PageCursor.decode(String(characters), order: .distance, queryKey: Self.queryKey)
                }
            }
            characters[index] = original
        }
    }

    @Test("truncated, lengthened, padded, empty or foreign cursors are refused")
    func malformed() {
        let cursor = PageCursor.encode(.recent(Date(timeIntervalSince1970: 1_700_000_000), id: UUID()), queryKey: Self.queryKey)
        let bad = [
            String(cursor.dropLast()), cursor + "A", cursor + "=", "", "%%%", "not a cursor",
            Data(repeating: 7, count: 36).base64EncodedString(),
            cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+",
        ]
        for text in bad {
            #expect(throws: GeoSearchError.invalid(["cursor": ["is not a cursor from this service, or was altered"]]), "\(text)") {
                try PageCursor.decode(text, order: .recent, queryKey: Self.queryKey)
            }
        }
    }

    @Test("a cursor is refused by another query or another sort order")
    func boundToItsList() {
        let cursor = PageCursor.encode(.distance(10, id: UUID()), queryKey: Self.queryKey)
        #expect(throws: GeoSearchError.invalid(["cursor": ["belongs to another query; ask for the first page again"]])) {
            try PageCursor.decode(cursor, order: .distance, queryKey: Self.queryKey + "&free=true")
        }
        #expect(throws: GeoSearchError.invalid(["cursor": ["belongs to a list in another sort order"]])) {
            try PageCursor.decode(cursor, order: .recent, queryKey: Self.queryKey)
        }
    }

    @Test("paging by cursor neither repeats nor skips an item, even among equal distances or times", arguments: ResultOrder.allCases)
    func paging(order: ResultOrder) throws {
        var random = SeededGenerator(seed: 13)
        // Few distinct values, so that many items tie and pages end in the middle of ties.
        let items: [PagePosition] = (0..<200).map { _ in
            let value = Double(Int.random(in: 0..<12, using: &random)) * 250.5
            return order == .distance
                ? .distance(value, id: random.uuid()) : .recent(Date(timeIntervalSince1970: 1_700_000_000 + value), id: random.uuid())
        }
        let sorted = items.sorted { $0.precedes($1) }
        var seen: [PagePosition] = []
        var cursor: String?
        while true {
            let after = try cursor.map { try PageCursor.decode($0, order: order, queryKey: Self.queryKey) }
            let page = Array(items.filter { item in after.map { $0.precedes(item) } ?? true }.sorted { $0.precedes($1) }.prefix(7))
            guard let last = page.last else { break }
            seen += page
            cursor = PageCursor.encode(last, queryKey: Self.queryKey)
        }
        #expect(seen == sorted)
        #expect(Set(seen.map(\.id)).count == items.count)
    }

    @Test("nearest first and newest first; ties go by id")
    func orders() {
        let (low, high) = (UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!)
        #expect(PagePosition.distance(1, id: high).precedes(.distance(2, id: low)))
        #expect(PagePosition.distance(2, id: low).precedes(.distance(2, id: high)))
        #expect(!PagePosition.distance(2, id: high).precedes(.distance(2, id: low)))
        #expect(!PagePosition.distance(2, id: low).precedes(.distance(2, id: low)))
        #expect(PagePosition.recent(Date(timeIntervalSince1970: 20), id: high).precedes(.recent(Date(timeIntervalSince1970: 10), id: low)))
        #expect(PagePosition.recent(Date(timeIntervalSince1970: 10), id: low).precedes(.recent(Date(timeIntervalSince1970: 10), id: high)))
        // The order of lowercase text, as SQLite sorts it.
        var random = SeededGenerator(seed: 17)
        for _ in 0..<1_000 {
            let (a, b) = (random.uuid(), random.uuid())
            #expect(PagePosition.distance(0, id: a).precedes(.distance(0, id: b)) == (a.uuidString.lowercased() < b.uuidString.lowercased()))
        }
    }
}
