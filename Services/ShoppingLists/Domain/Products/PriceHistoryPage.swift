import Codecs
import EventLog
import Foundation

/// One page of a product's price history (``PriceHistory``), oldest first, made from its
/// stream's events as they are read, and the opaque `cursor` of the page after it.
///
/// A page ends after `limit` entries, or where the reader stopped reading (it bounds the
/// events one request reads, so a page of one store's prices may hold fewer than `limit`
/// entries and still have a next page). One event can add several entries (a product's
/// first offers), so a page may end inside an event: the cursor names the event's version
/// and how many of its entries were shown already.
public struct PriceHistoryPage: Sendable {
    /// Where a page starts: an event of the product's stream, past its first `skip` entries.
    public struct Position: CursorPosition, Sendable, Hashable {
        public var version: Int64
        public var skip: Int

        /// The first event of a stream (versions start at 1).
        public static let start = Position(version: 1, skip: 0)

        public init(version: Int64, skip: Int) {
            self.version = version
            self.skip = skip
        }

        public func appendCursorJSON(to json: inout [UInt8]) {
            CursorJSONObject.write(to: &json) { object in
                object.member("skip", Int64(skip))
                object.member("version", version)
            }
        }
    }

    public let limit: Int
    public let store: UUID?
    /// The page's entries so far.
    public private(set) var entries: [PriceHistory.Entry] = []
    /// The version of the next event to read.
    public private(set) var nextVersion: Int64
    /// Where the next page starts, once this one is known to end before the history does.
    public private(set) var next: Position?
    private let start: Position

    /// A page of at most `limit` entries from `start`, of one store's prices when `store` is given.
    public init(from start: Position = .start, limit: Int, store: UUID? = nil) {
        (self.start, self.nextVersion, self.limit, self.store) = (start, start.version, limit, store)
    }

    /// Adds the event the stream holds at `version` (nil: an event that is no catalogue
    /// fact). False once the page is full: the reader stops, and ``next`` says where the
    /// next page starts. Events come in the stream's order, from ``nextVersion``; one from
    /// before it is already on the page and is passed over.
    public mutating func add(_ event: (any EventContract)?, at date: Date, version: Int64) -> Bool {
        guard version >= nextVersion else { return true }
        let shown = version == start.version ? start.skip : 0
        let added = event.map { PriceHistory.entries(of: $0, at: date, store: store) } ?? []
        for (offset, entry) in added.enumerated().dropFirst(shown) {
            guard entries.count < limit else {
                next = Position(version: version, skip: offset)
                return false
            }
            entries.append(entry)
        }
        nextVersion = version + 1
        return true
    }

    /// Ends the page where reading stopped, with the rest of the stream unread: the next page starts there.
    public mutating func stopReading() {
        if next == nil { next = Position(version: nextVersion, skip: 0) }
    }

    /// The cursor of `position` for the prices of `product` (of `store` when given).
    public static func cursor(_ position: Position, product: UUID, store: UUID?) -> String {
        OpaqueCursor.encode(position, query: queryKey(product: product, store: store))
    }

    /// The position `text` holds, if ``cursor(_:product:store:)`` made it for this product and store.
    public static func position(of text: String, product: UUID, store: UUID?) -> Position? {
        guard let position = try? OpaqueCursor.decode(text, as: Position.self, query: queryKey(product: product, store: store)),
            position.version >= 1, position.skip >= 0
        else { return nil }
        return position
    }

    private static func queryKey(product: UUID, store: UUID?) -> String {
        "prices|\(product.lowercasedText)|\(store?.lowercasedText ?? "")"
    }
}
