import Foundation

extension Listing {
    /// The `If-Match` value for editing this listing as read.
    public var etag: ETag { ETag(version: version) }
}

/// Filters of the listings feed (`GET /v1/listings`).
public struct ListingFeedQuery: Sendable, Equatable {
    public var category: ListingCategory?
    public var free: Bool?
    public var minPrice: Int?
    public var maxPrice: Int?
    public var currency: CurrencyCode?
    /// The statuses to show (default: available only); withdrawn and hidden only with `author: "me"`.
    public var statuses: [ListingStatus]?
    /// `me` for my own listings.
    public var author: String?
    public var q: String?
    public var sort: String?
    /// `asc` or `desc`: the other way than `sort`'s own (newest, cheapest, A first; best match only one way).
    public var order: String?
    public var limit: Int?
    public var cursor: String?

    public init(
        category: ListingCategory? = nil, free: Bool? = nil, minPrice: Int? = nil, maxPrice: Int? = nil, currency: CurrencyCode? = nil,
        statuses: [ListingStatus]? = nil, author: String? = nil, q: String? = nil, sort: String? = nil, order: String? = nil,
        limit: Int? = nil, cursor: String? = nil
    ) {
        self.category = category
        self.free = free
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.currency = currency
        self.statuses = statuses
        self.author = author
        self.q = q
        self.sort = sort
        self.order = order
        self.limit = limit
        self.cursor = cursor
    }

    var items: [URLQueryItem] {
        query([
            ("category", category), ("free", free), ("minPrice", minPrice), ("maxPrice", maxPrice), ("currency", currency),
            ("status", statuses?.map(\.rawValue).joined(separator: ",")), ("author", author), ("q", q), ("sort", sort),
            ("order", order), ("limit", limit), ("cursor", cursor),
        ])
    }
}

// MARK: Endpoints (listings)

/// The `listings` service: `/v1/listings`, `/v1/images`, `/v1/conversations`.
public struct ListingsEndpoints: Sendable {
    let client: CommonsClient

    /// Posts a listing (201); the answer is the owner's view.
    public func post(_ listing: NewListing) async throws -> Listing {
        try await client.call(try Endpoint(.post, "/v1/listings", json: listing, idempotent: true))
    }

    /// A listing; signed in, its owner and promised requester see the exact place.
    public func get(_ id: UUID) async throws -> Tagged<Listing> {
        try await client.tagged(Endpoint(.get, "/v1/listings/\(segment(id))", auth: .optional))
    }

    /// Edits my listing; `ifMatch` is required (428 without, 412 when stale).
    public func edit(_ id: UUID, _ change: ListingChange, ifMatch: ETag) async throws -> Tagged<Listing> {
        try await client.tagged(try Endpoint(.patch, "/v1/listings/\(segment(id))", json: change, ifMatch: ifMatch))
    }

    /// Withdraws my listing.
    public func withdraw(_ id: UUID) async throws -> Listing {
        try await client.call(Endpoint(.delete, "/v1/listings/\(segment(id))"))
    }

    /// Moves a promised listing to `available`, `given` (free) or `sold` (priced).
    public func setStatus(_ id: UUID, _ status: ListingStatus) async throws -> Listing {
        try await client.call(try Endpoint(.post, "/v1/listings/\(segment(id))/status", json: ["status": status]))
    }

    /// Marks a promised free item given.
    public func markGiven(_ id: UUID) async throws -> Listing { try await setStatus(id, .given) }

    /// Extends a listing's life, or brings an expired one back.
    public func renew(_ id: UUID) async throws -> Listing {
        try await client.call(Endpoint(.post, "/v1/listings/\(segment(id))/renew"))
    }

    /// The listing's events (owner).
    public func history(_ id: UUID) async throws -> [ListingHistoryEntry] {
        try await client.call(Endpoint(.get, "/v1/listings/\(segment(id))/history"), as: Items<ListingHistoryEntry>.self).items
    }

    /// The feed.
    public func feed(_ query: ListingFeedQuery = .init()) async throws -> Page<Listing> {
        try await client.call(Endpoint(.get, "/v1/listings", query: query.items, auth: .optional))
    }

    /// What changed since a point of the change feed.
    public func changes(since: String? = nil, limit: Int? = nil) async throws -> ListingChanges {
        try await client.call(Endpoint(.get, "/v1/listings/changes", query: query([("since", since), ("limit", limit)]), auth: .none))
    }

    /// Asks the owner for an available listing; opens a conversation.
    public func request(_ id: UUID, message: String) async throws -> ListingRequest {
        try await client.call(try Endpoint(.post, "/v1/listings/\(segment(id))/requests", json: ["message": message], idempotent: true))
    }

    /// A page of the requests for my listing, oldest first.
    public func requests(_ id: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> Page<ListingRequest> {
        try await client.call(Endpoint(.get, "/v1/listings/\(segment(id))/requests", query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// Promises my listing to one request's author.
    public func promise(_ id: UUID, to request: UUID) async throws -> Listing {
        try await client.call(try Endpoint(.post, "/v1/listings/\(segment(id))/promise", json: ["requestId": request]))
    }

    /// Reports a listing (202).
    public func report(_ id: UUID, reason: String) async throws {
        try await client.perform(try Endpoint(.post, "/v1/listings/\(segment(id))/reports", json: ["reason": reason], idempotent: true))
    }

    /// A page of the listings with open reports, in id order, each with all its open reports (admins).
    public func reports(limit: Int? = nil, cursor: String? = nil) async throws -> Page<ReportedListing> {
        try await client.call(Endpoint(.get, "/v1/listings/reports", query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// Every listing with open reports, page after page (admins).
    public func allReports() async throws -> [ReportedListing] {
        try await Page.all { cursor in try await reports(limit: 100, cursor: cursor) }
    }

    /// Resolves a listing's open reports: `dismissed` or `removed` (admins).
    public func resolveReports(_ id: UUID, decision: String) async throws -> StatusAnswer {
        try await client.call(try Endpoint(.post, "/v1/listings/\(segment(id))/reports/resolve", json: ["decision": decision]))
    }

    /// Comments on a listing.
    public func comment(_ id: UUID, text: String) async throws -> Comment {
        try await client.call(try Endpoint(.post, "/v1/listings/\(segment(id))/comments", json: ["text": text], idempotent: true))
    }

    /// A listing's comments, oldest first.
    public func comments(_ id: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Comment> {
        try await client.call(
            Endpoint(
                .get, "/v1/listings/\(segment(id))/comments", query: query([("limit", limit), ("cursor", cursor)]),
                auth: .none))
    }

    /// Deletes a comment (its author or the listing's owner).
    public func deleteComment(_ id: UUID, comment: String) async throws {
        try await client.perform(Endpoint(.delete, "/v1/listings/\(segment(id))/comments/\(segment(comment))"))
    }

    /// My conversations, newest message first, with unread counts: a page of `limit` (1–100,
    /// the server's default 50) after `cursor`; only those about `listing` when given.
    public func conversations(listing: UUID? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> Conversations {
        try await client.call(
            Endpoint(
                .get, "/v1/conversations",
                query: query([("listing", listing?.uuidString.lowercased()), ("limit", limit), ("cursor", cursor)])))
    }

    /// Every conversation of mine (about `listing` when given), page after page.
    public func allConversations(listing: UUID? = nil) async throws -> [Conversation] {
        try await Page.all { cursor in
            let page = try await conversations(listing: listing, limit: 100, cursor: cursor)
            return Page(items: page.items, nextCursor: page.nextCursor)
        }
    }

    /// One of my conversations, with its unread count.
    public func conversation(_ id: String) async throws -> Conversation {
        try await client.call(Endpoint(.get, "/v1/conversations/\(segment(id))"))
    }

    /// A conversation's messages, oldest first.
    public func messages(_ conversation: String, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Message> {
        try await client.call(
            Endpoint(
                .get, "/v1/conversations/\(segment(conversation))/messages",
                query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// Writes in a conversation.
    public func send(_ conversation: String, text: String) async throws -> Message {
        try await client.call(try Endpoint(.post, "/v1/conversations/\(segment(conversation))/messages", json: ["text": text], idempotent: true))
    }

    /// Marks a conversation read.
    public func markRead(_ conversation: String) async throws {
        try await client.perform(Endpoint(.post, "/v1/conversations/\(segment(conversation))/read"))
    }

    /// Uploads a JPEG, PNG, WebP or HEIC photo (at most 10 MiB), with an `Idempotency-Key`
    /// that its retries reuse; the same picture is always one image. The service removes its
    /// GPS position and every other piece of metadata, turns it upright, and keeps a small
    /// and a medium size beside it.
    public func uploadImage(_ bytes: Data, contentType: String = "application/octet-stream") async throws -> UploadedImage {
        var endpoint = Endpoint(.post, "/v1/images", idempotent: true)
        endpoint.body = bytes
        endpoint.contentType = contentType
        return try await client.call(endpoint)
    }

    /// An image's bytes in `size` (the cleaned original unless asked).
    public func image(_ id: UUID, size: ImageSize = .original) async throws -> Data {
        var endpoint = Endpoint(.get, "/v1/images/\(segment(id))", auth: .none)
        if size != .original { endpoint.query = [URLQueryItem(name: "size", value: size.rawValue)] }
        return try await client.send(endpoint).body
    }
}
