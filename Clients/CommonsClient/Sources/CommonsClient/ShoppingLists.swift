import Foundation

// MARK: Models (shopping-lists)

/// A catalogue product.
public struct Product: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var brand: String
    public var category: String
    public var unit: String
    public var image: String?
    public var caloriesPerUnit: Int
    /// The lowest price of any offer.
    public var cheapestPrice: Money?
    public var averageRating: Double?
    public var reviewCount: Int
}

/// A store's offer of a product.
public struct Offer: Codable, Sendable, Equatable {
    public var storeId: UUID
    public var retailer: String
    public var storeName: String
    public var address: String
    public var lat: Double
    public var lon: Double
    public var price: Money
    public var directionsURL: String
    /// From the query's point, when one was given.
    public var distanceMeters: Double?
    /// The cheapest offer within the radius of the query's point.
    public var cheapestNearby: Bool
}

/// A product with its offers (`GET /v1/products/{id}`).
public struct ProductDetail: Codable, Sendable, Equatable {
    public var product: Product
    public var offers: [Offer]
    /// Whether I marked it as a favourite (nil when not signed in).
    public var favorite: Bool?

    enum CodingKeys: String, CodingKey { case offers, favorite }

    public init(from decoder: any Decoder) throws {
        product = try Product(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offers = try container.decode([Offer].self, forKey: .offers)
        favorite = try container.decodeIfPresent(Bool.self, forKey: .favorite)
    }

    public func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offers, forKey: .offers)
        try container.encodeIfPresent(favorite, forKey: .favorite)
    }
}

/// One price a store asked for a product, from `since` (`GET /v1/products/{id}/prices`);
/// `price` nil means the store stopped offering it.
public struct PricePoint: Codable, Sendable, Equatable {
    public var storeId: UUID
    public var price: Money?
    public var since: Date
}

/// A product often on the same lists as another (`GET /v1/products/{id}/related`).
public struct RelatedProduct: Codable, Sendable, Equatable {
    public var product: Product
    /// On how many lists both are.
    public var sharedLists: Int

    enum CodingKeys: String, CodingKey { case sharedLists }

    public init(from decoder: any Decoder) throws {
        product = try Product(from: decoder)
        sharedLists = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .sharedLists)
    }

    public func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sharedLists, forKey: .sharedLists)
    }
}

/// A review of a product.
public struct Review: Codable, Sendable, Equatable {
    public var productId: UUID
    public var authorId: UUID
    /// 1–5 stars.
    public var rating: Int
    public var text: String
    public var at: Date
}

/// A list in "my lists".
public struct ListSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var ownerId: UUID
    /// `owner` or `member`: my part.
    public var role: String
    public var itemCount: Int
    public var uncheckedCount: Int
    public var version: Int64
}

/// An item of a list: a catalogue product or free text.
public struct ListItem: Codable, Sendable, Equatable {
    public var id: UUID
    public var productId: UUID?
    public var product: Product?
    public var text: String?
    public var quantity: Int
    public var checked: Bool
    public var note: String?
    public var addedBy: UUID
}

/// A list's totals: calories, cheapest prices per currency, and items with no price.
public struct ListTotals: Codable, Sendable, Equatable {
    public var calories: Int
    public var prices: [Money]
    public var unpricedItems: Int
}

/// A list as a member sees it.
public struct ShoppingList: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var ownerId: UUID
    public var role: String
    public var members: [UUID]
    public var items: [ListItem]
    public var totals: ListTotals
    public var version: Int64

    public var etag: ETag { ETag(version: version) }
}

/// `POST /v1/lists/{id}/items`: a product (`productId`) or free `text`; `itemId` lets an
/// offline client name the item itself.
public struct NewListItem: Codable, Sendable, Equatable {
    public var itemId: UUID?
    public var productId: UUID?
    public var text: String?
    /// 1–999 (default 1).
    public var quantity: Int?
    public var note: String?

    public init(itemId: UUID? = nil, productId: UUID? = nil, text: String? = nil, quantity: Int? = nil, note: String? = nil) {
        self.itemId = itemId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
    }
}

/// `PATCH /v1/lists/{id}/items/{itemId}`: `quantityDelta` merges with others' changes;
/// `after` moves the item (`.clear`: to the top).
public struct ListItemChange: Codable, Sendable, Equatable {
    public var quantityDelta: Int?
    public var checked: Bool?
    public var note: PatchValue<String>?
    public var after: PatchValue<UUID>?

    public init(quantityDelta: Int? = nil, checked: Bool? = nil, note: PatchValue<String>? = nil, after: PatchValue<UUID>? = nil) {
        self.quantityDelta = quantityDelta
        self.checked = checked
        self.note = note
        self.after = after
    }
}

/// An item's state after a change.
public struct ListItemState: Codable, Sendable, Equatable {
    public var id: UUID
    public var quantity: Int
    public var checked: Bool
}

/// One offline edit of a batch: `addItem`, `changeQuantity`, `check`, `uncheck`, `setNote`,
/// `move`, `removeItem` or `rename`, with a client-chosen `commandId` that makes it safe to send again.
public struct ListCommand: Codable, Sendable, Equatable {
    public var commandId: String
    public var type: String
    public var itemId: UUID?
    public var productId: UUID?
    public var text: String?
    public var quantity: Int?
    public var note: String?
    public var delta: Int?
    public var checked: Bool?
    public var after: UUID?
    public var name: String?

    public init(
        commandId: String = UUID().uuidString.lowercased(), type: String, itemId: UUID? = nil, productId: UUID? = nil,
        text: String? = nil, quantity: Int? = nil, note: String? = nil, delta: Int? = nil, checked: Bool? = nil,
        after: UUID? = nil, name: String? = nil
    ) {
        self.commandId = commandId
        self.type = type
        self.itemId = itemId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
        self.delta = delta
        self.checked = checked
        self.after = after
        self.name = name
    }
}

/// The outcome of a batch: per command, `applied` (maybe `replayed`) or `rejected` with its problem.
public struct ListCommandResults: Codable, Sendable, Equatable {
    public struct Result: Codable, Sendable, Equatable {
        public var status: String
        public var replayed: Bool?
        public var problem: ProblemDocument?
    }

    public var results: [String: Result]
    public var version: Int64
}

/// A problem document inside another answer.
public struct ProblemDocument: Codable, Sendable, Equatable {
    public var type: String
    public var title: String?
    public var status: Int?
    public var detail: String?
    public var errors: [String: [String]]?
}

/// One change of a list, as collaborators receive it live.
public struct ListChange: Codable, Sendable, Equatable {
    public var version: Int64
    public var type: String
    public var at: Date
    public var by: String?
    public var itemId: UUID?
    public var productId: UUID?
    public var accountId: UUID?
    public var name: String?
    public var text: String?
    public var note: String?
    public var quantity: Int?
    public var delta: Int?
    public var checked: Bool?
    public var rank: Double?
}

// MARK: Endpoints (shopping-lists)

/// The `shopping-lists` service: `/v1/products`, `/v1/lists`, `/v1/me/favorites`.
public struct ShoppingListsEndpoints: Sendable {
    let client: CommonsClient

    /// Searches the catalogue by name (words as prefixes, ranked) and category.
    public func products(q: String? = nil, category: String? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Product> {
        try await client.call(
            Endpoint(
                .get, "/v1/products", query: query([("q", q), ("category", category), ("limit", limit), ("cursor", cursor)]),
                auth: .optional))
    }

    /// A product with its offers; near a point (radius in km, default 5) they are sorted by
    /// distance and the cheapest nearby is marked.
    public func product(_ id: UUID, near point: Coordinate? = nil, radiusKm: Double? = nil) async throws -> ProductDetail {
        try await client.call(
            Endpoint(
                .get, "/v1/products/\(segment(id))",
                query: query([("lat", point?.lat), ("lon", point?.lon), ("radius", radiusKm)]), auth: .optional))
    }

    /// Every price each store asked for a product, oldest first, page after page; of one store when given.
    public func prices(_ id: UUID, store: UUID? = nil) async throws -> [PricePoint] {
        try await Page.all { cursor in try await pricePage(id, store: store, limit: 100, cursor: cursor) }
    }

    /// A page of the prices each store asked for a product, oldest first (of one store when
    /// given): `limit` 1–100 (the server's default 100) after `cursor`. A page of one store's
    /// prices may hold fewer than `limit` and still have a `nextCursor` (the server reads at
    /// most 2,000 of the product's events a page).
    public func pricePage(_ id: UUID, store: UUID? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> Page<PricePoint> {
        try await client.call(
            Endpoint(
                .get, "/v1/products/\(segment(id))/prices",
                query: query([("storeId", store?.uuidString.lowercased()), ("limit", limit), ("cursor", cursor)]), auth: .none))
    }

    /// Products most often on the same lists.
    public func related(_ id: UUID, limit: Int? = nil) async throws -> [RelatedProduct] {
        try await client.call(
            Endpoint(.get, "/v1/products/\(segment(id))/related", query: query([("limit", limit)]), auth: .none),
            as: Items<RelatedProduct>.self
        ).items
    }

    /// Writes or edits my review.
    public func review(_ product: UUID, rating: Int, text: String? = nil) async throws -> Review {
        struct Body: Codable, Sendable { var rating: Int; var text: String? }
        return try await client.call(try Endpoint(.put, "/v1/products/\(segment(product))/review", json: Body(rating: rating, text: text)))
    }

    /// The newest reviews of a product: the first page of `limit` (1–100, the server's default 50).
    public func reviews(_ product: UUID, limit: Int? = nil) async throws -> [Review] {
        try await reviewPage(product, limit: limit).items
    }

    /// A page of a product's reviews, newest first: `limit` (1–100, the server's default 50)
    /// after `cursor`. Reviews of deleted accounts are left out, so a page may hold fewer.
    public func reviewPage(_ product: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Review> {
        try await client.call(
            Endpoint(
                .get, "/v1/products/\(segment(product))/reviews", query: query([("limit", limit), ("cursor", cursor)]),
                auth: .none))
    }

    /// Marks a product as a favourite.
    public func favorite(_ product: UUID) async throws {
        try await client.perform(Endpoint(.put, "/v1/products/\(segment(product))/favorite"))
    }

    /// Unmarks a favourite.
    public func unfavorite(_ product: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/products/\(segment(product))/favorite"))
    }

    /// All my favourite products, the latest marked first, page after page.
    public func favorites() async throws -> [Product] {
        try await Page.all { cursor in try await favoritePage(limit: 100, cursor: cursor) }
    }

    /// A page of my favourite products, the latest marked first: `limit` (1–100, the
    /// server's default 100) after `cursor`.
    public func favoritePage(limit: Int? = nil, cursor: String? = nil) async throws -> Page<Product> {
        try await client.call(Endpoint(.get, "/v1/me/favorites", query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// Makes a list.
    public func create(name: String) async throws -> ListSummary {
        try await client.call(try Endpoint(.post, "/v1/lists", json: ["name": name], idempotent: true))
    }

    /// My lists and those shared with me, newest first.
    public func mine(limit: Int? = nil, cursor: String? = nil) async throws -> Page<ListSummary> {
        try await client.call(Endpoint(.get, "/v1/lists", query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// A list with items, members and totals.
    public func get(_ id: UUID) async throws -> Tagged<ShoppingList> {
        try await client.tagged(Endpoint(.get, "/v1/lists/\(segment(id))"))
    }

    /// Renames my list; with `ifMatch`, 412 when it changed meanwhile.
    public func rename(_ id: UUID, to name: String, ifMatch: ETag? = nil) async throws {
        try await client.perform(try Endpoint(.patch, "/v1/lists/\(segment(id))", json: ["name": name], ifMatch: ifMatch))
    }

    /// Deletes my list.
    public func delete(_ id: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/lists/\(segment(id))"))
    }

    /// Adds a product or free text.
    public func addItem(_ list: UUID, _ item: NewListItem) async throws -> ListItemState {
        try await client.call(try Endpoint(.post, "/v1/lists/\(segment(list))/items", json: item, idempotent: true))
    }

    /// Adds free text.
    public func addItem(_ list: UUID, text: String, quantity: Int? = nil, note: String? = nil) async throws -> ListItemState {
        try await addItem(list, NewListItem(text: text, quantity: quantity, note: note))
    }

    /// Edits an item.
    public func editItem(_ list: UUID, item: UUID, _ change: ListItemChange) async throws -> ListItemState {
        try await client.call(try Endpoint(.patch, "/v1/lists/\(segment(list))/items/\(segment(item))", json: change))
    }

    /// Removes an item.
    public func removeItem(_ list: UUID, item: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/lists/\(segment(list))/items/\(segment(item))"))
    }

    /// Shares my list with an account; answers the members.
    @discardableResult
    public func share(_ list: UUID, with account: UUID) async throws -> [UUID] {
        struct Members: Codable, Sendable { var members: [UUID] }
        return try await client.call(
            try Endpoint(.post, "/v1/lists/\(segment(list))/members", json: ["accountId": account], idempotent: true),
            as: Members.self
        ).members
    }

    /// Leaves a list (myself) or removes a member (owner).
    public func removeMember(_ list: UUID, _ account: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/lists/\(segment(list))/members/\(segment(account))"))
    }

    /// Applies offline edits in order; sending the same commands again changes nothing.
    public func apply(_ list: UUID, _ commands: [ListCommand]) async throws -> ListCommandResults {
        struct Body: Codable, Sendable { var commands: [ListCommand] }
        return try await client.call(try Endpoint(.post, "/v1/lists/\(segment(list))/commands", json: Body(commands: commands)))
    }

    /// Changes of a list as they happen (`GET /v1/lists/{id}/events`, server-sent events),
    /// oldest first: from after version `after` (else from the list's start), up to version
    /// `until` when given, where the sequence ends.
    ///
    /// It runs until then, or until the consuming task is cancelled: a dropped connection, or
    /// a stream the server ended when the session's access token expired, is reconnected after
    /// a back-off (refreshing the session when it is refused with 401) and resumes after the
    /// last version received, so each change comes once. It ends by throwing ``CommonsProblem``
    /// when the list is gone or I am no longer a member of it (404 once it has sent the last
    /// change I may see), when the session cannot be refreshed (401), and on other refusals.
    ///
    /// ```swift
    /// for try await change in commons.lists.liveChanges(list.id, after: list.version) { apply(change) }
    /// ```
    public func liveChanges(_ list: UUID, after version: Int64? = nil, until: Int64? = nil) -> AsyncThrowingStream<ListChange, any Error> {
        let stream = LiveStream(
            endpoint: Endpoint(.get, "/v1/lists/\(segment(list))/events", query: query([("until", until)])),
            eventType: "change"
        ) { lastEventId in
            guard let until else { return false }
            return (lastEventId.flatMap { Int64($0) } ?? 0) >= until
        }
        return client.live(stream, after: version.map(String.init))
    }

    /// The list's changes after version `lastEventId` up to version `until`, once they have
    /// all come (``liveChanges(_:after:until:)`` read to its end).
    public func changes(_ list: UUID, after lastEventId: Int64? = nil, until: Int64) async throws -> [ListChange] {
        var changes: [ListChange] = []
        for try await change in liveChanges(list, after: lastEventId, until: until) { changes.append(change) }
        // A cancelled task ends the sequence early without an error: that is no answer.
        try Task.checkCancellation()
        return changes
    }
}
