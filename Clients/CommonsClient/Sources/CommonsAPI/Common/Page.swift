import Foundation

/// One page of a list: `{ items, nextCursor }`; pass `nextCursor` back for the next page
/// (nil on the last one).
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Equatable where Item: Equatable {}

extension Page {
    /// Every item of a paged list, page after page, in the order the pages give them:
    /// `page(cursor)` reads the page after `cursor` (nil: the first), and reading stops after
    /// the first page without a `nextCursor`. Whatever `page` throws ends the reading and is
    /// thrown, with the items read so far dropped.
    ///
    /// ```swift
    /// let all = try await Page.all { cursor in try await commons.donations.donations(limit: 100, cursor: cursor) }
    /// ```
    public static func all(_ page: (String?) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let next = try await page(cursor)
            items += next.items
            cursor = next.nextCursor
        } while cursor != nil
        return items
    }
}

/// A list answered whole: `{ items }`.
public struct Items<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]

    public init(items: [Item]) {
        self.items = items
    }
}

extension Items: Equatable where Item: Equatable {}

/// `{ count }`, the answer of searches asked with `count=true`.
public struct Count: Codable, Sendable, Equatable {
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}
