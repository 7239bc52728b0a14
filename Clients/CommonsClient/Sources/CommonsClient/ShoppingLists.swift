import Foundation

extension ShoppingList {
    /// The `ETag` of this version, for `If-Match`.
    public var etag: ETag { ETag(version: version) }
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
        try await client.call(try Endpoint(.put, "/v1/products/\(segment(product))/review", json: NewReview(rating: rating, text: text)))
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
        try await client.call(
            try Endpoint(.post, "/v1/lists/\(segment(list))/members", json: NewListMember(accountId: account), idempotent: true),
            as: ListMembers.self
        ).members
    }

    /// Leaves a list (myself) or removes a member (owner).
    public func removeMember(_ list: UUID, _ account: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/lists/\(segment(list))/members/\(segment(account))"))
    }

    /// Applies offline edits in order; sending the same commands again changes nothing.
    public func apply(_ list: UUID, _ commands: [ListCommand]) async throws -> ListCommandResults {
        try await client.call(try Endpoint(.post, "/v1/lists/\(segment(list))/commands", json: ListCommandBatch(commands: commands)))
    }

    /// Changes of a list as they happen (`GET /v1/lists/{id}/events`, server-sent events),
    /// oldest first: from after version `after` (else from the list's start: its whole
    /// history), up to version `until` when given, where the sequence ends. To start from the
    /// list as it is instead, use ``live(_:until:)``.
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
        // Resuming after version 0 asks for the whole history; a stream opened without one starts with a snapshot.
        return client.live(stream, after: String(version ?? 0))
    }

    /// A list as it happens (`GET /v1/lists/{id}/events`): first ``ListStreamEvent/snapshot(_:)``,
    /// the list as it is now, then each ``ListStreamEvent/change(_:)`` after it, up to version
    /// `until` when given. Reconnects and ends as ``liveChanges(_:after:until:)`` does; a
    /// reconnection resumes after the last version received, so nothing comes twice.
    ///
    /// ```swift
    /// for try await event in commons.lists.live(list.id) {
    ///     switch event {
    ///     case .snapshot(let list): show(list)
    ///     case .change(let change): apply(change)
    ///     }
    /// }
    /// ```
    public func live(_ list: UUID, until: Int64? = nil) -> AsyncThrowingStream<ListStreamEvent, any Error> {
        let path = "/v1/lists/\(segment(list))/events"
        let stream = LiveStream(endpoint: Endpoint(.get, path, query: query([("until", until)])), eventTypes: ["snapshot", "change"]) {
            lastEventId in
            guard let until else { return false }
            return (lastEventId.flatMap { Int64($0) } ?? 0) >= until
        }
        let client = client
        return client.live(stream, after: nil) { name, data in
            name == "snapshot"
                ? .snapshot(try client.decode(ShoppingList.self, from: data, path: path))
                : .change(try client.decode(ListChange.self, from: data, path: path))
        }
    }

    /// Changes to my lists as they happen (`GET /v1/lists/events`): a list made, shared with
    /// me, someone joining or leaving one, my leaving, a rename, a deletion. A stream opened
    /// without `after` (the `position` of an event received before) begins with
    /// ``MyListsEvent/ready(position:)``. Each position received is noted in ``CommonsClient/positions``,
    /// so a ``mine(limit:cursor:)`` after it shows the change. Reconnects and ends as
    /// ``liveChanges(_:after:until:)`` does (it never completes by itself).
    public func liveMyLists(after position: String? = nil) -> AsyncThrowingStream<MyListsEvent, any Error> {
        let stream = LiveStream(endpoint: Endpoint(.get, "/v1/lists/events"), eventTypes: ["ready", "list"])
        let client = client
        return client.live(stream, after: position) { name, data in
            if name == "ready" {
                let start = try client.decode(LiveStreamStart.self, from: data, path: stream.endpoint.path)
                client.positions.observe(start.position)
                return .ready(position: start.position)
            }
            let change = try client.decode(MyListChange.self, from: data, path: stream.endpoint.path)
            client.positions.observe(change.position)
            return .change(change)
        }
    }

    /// The list's changes after version `lastEventId` up to version `until`, once they have
    /// all come (``liveChanges(_:after:until:)`` read to its end).
    public func changes(_ list: UUID, after lastEventId: Int64? = nil, until: Int64) async throws -> [ListChange] {
        var changes: [ListChange] = []
        var after = lastEventId
        while true {
            do {
                for try await change in liveChanges(list, after: after, until: until) { changes.append(change) }
                break
            } catch let gap as LiveStreamGap<ListChange> {
                // The server sends what was dropped again: read on from the last change kept.
                after = gap.resumeAfter.flatMap { Int64($0) } ?? after
            }
        }
        // A cancelled task ends the sequence early without an error: that is no answer.
        try Task.checkCancellation()
        return changes
    }
}
