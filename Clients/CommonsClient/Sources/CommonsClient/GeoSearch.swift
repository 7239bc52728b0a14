import Foundation

/// Where to search: around a point, or inside a map box.
public enum SearchPlace: Sendable, Equatable {
    /// Within `radius` (in `unit`) of a point, nearest first by default.
    case nearby(lat: Double, lon: Double, radius: Double? = nil, unit: DistanceUnit? = nil)
    /// Inside a box; `swLon > neLon` crosses the antimeridian.
    case area(swLat: Double, swLon: Double, neLat: Double, neLon: Double)

    var path: String {
        switch self {
        case .nearby: "nearby"
        case .area: "area"
        }
    }

    var items: [(String, (any CustomStringConvertible)?)] {
        switch self {
        case let .nearby(lat, lon, radius, unit): [("lat", lat), ("lon", lon), ("radius", radius), ("unit", unit?.rawValue)]
        case let .area(swLat, swLon, neLat, neLon): [("swLat", swLat), ("swLon", swLon), ("neLat", neLat), ("neLon", neLon)]
        }
    }
}

/// Filters of a listing search.
public struct ListingSearchFilters: Sendable, Equatable {
    public var category: ListingCategory?
    /// Words matched in title and description.
    public var q: String?
    public var free: Bool?
    /// `available` (default) or `promised`.
    public var status: ListingStatus?
    /// `distance` or `recent`.
    public var sort: String?
    public var limit: Int?
    public var cursor: String?

    public init(
        category: ListingCategory? = nil, q: String? = nil, free: Bool? = nil, status: ListingStatus? = nil, sort: String? = nil,
        limit: Int? = nil, cursor: String? = nil
    ) {
        self.category = category
        self.q = q
        self.free = free
        self.status = status
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
    }

    var items: [(String, (any CustomStringConvertible)?)] {
        [("category", category), ("q", q), ("free", free), ("status", status), ("sort", sort), ("limit", limit), ("cursor", cursor)]
    }
}

/// Filters of an organisation search.
public struct OrganizationSearchFilters: Sendable, Equatable {
    /// `charity`, `centre` or `both`.
    public var kind: String?
    public var tag: String?
    public var acceptsCategory: ListingCategory?
    public var limit: Int?
    public var cursor: String?

    public init(kind: String? = nil, tag: String? = nil, acceptsCategory: ListingCategory? = nil, limit: Int? = nil, cursor: String? = nil) {
        self.kind = kind
        self.tag = tag
        self.acceptsCategory = acceptsCategory
        self.limit = limit
        self.cursor = cursor
    }

    var items: [(String, (any CustomStringConvertible)?)] {
        [("kind", kind), ("tag", tag), ("acceptsCategory", acceptsCategory), ("limit", limit), ("cursor", cursor)]
    }
}

// MARK: Endpoints (geo-search)

/// The `geo-search` service: `/v1/nearby`, `/v1/area`, `/v1/alerts`. Searches are public.
public struct GeoEndpoints: Sendable {
    let client: CommonsClient

    /// Listings around a point (nearest first) or in a box (newest first).
    public func listings(_ place: SearchPlace, _ filters: ListingSearchFilters = .init()) async throws -> Page<ListingHit> {
        try await client.call(Endpoint(.get, "/v1/\(place.path)/listings", query: query(place.items + filters.items), auth: .none))
    }

    /// Listings within `radius` of a point.
    public func nearbyListings(
        lat: Double, lon: Double, radius: Double? = nil, unit: DistanceUnit? = nil,
        _ filters: ListingSearchFilters = .init()
    ) async throws -> Page<ListingHit> {
        try await listings(.nearby(lat: lat, lon: lon, radius: radius, unit: unit), filters)
    }

    /// How many listings a search would find.
    public func countListings(_ place: SearchPlace, _ filters: ListingSearchFilters = .init()) async throws -> Int {
        try await client.call(
            Endpoint(
                .get, "/v1/\(place.path)/listings", query: query(place.items + filters.items + [("count", true)]),
                auth: .none), as: Count.self
        ).count
    }

    /// Charities and donation centres around a point or in a box.
    public func organizations(_ place: SearchPlace, _ filters: OrganizationSearchFilters = .init()) async throws -> Page<OrganizationHit> {
        try await client.call(Endpoint(.get, "/v1/\(place.path)/organizations", query: query(place.items + filters.items), auth: .none))
    }

    /// Organisations within `radius` of a point.
    public func nearbyOrganizations(
        lat: Double, lon: Double, radius: Double? = nil, unit: DistanceUnit? = nil,
        _ filters: OrganizationSearchFilters = .init()
    ) async throws -> Page<OrganizationHit> {
        try await organizations(.nearby(lat: lat, lon: lon, radius: radius, unit: unit), filters)
    }

    /// How many organisations a search would find.
    public func countOrganizations(_ place: SearchPlace, _ filters: OrganizationSearchFilters = .init()) async throws -> Int {
        try await client.call(
            Endpoint(
                .get, "/v1/\(place.path)/organizations", query: query(place.items + filters.items + [("count", true)]),
                auth: .none), as: Count.self
        ).count
    }

    /// Saves a search (at most 20 per account).
    public func createAlert(_ alert: NewAlert) async throws -> Alert {
        try await client.call(try Endpoint(.post, "/v1/alerts", json: alert, idempotent: true))
    }

    /// My alerts.
    public func alerts() async throws -> [Alert] {
        try await client.call(Endpoint(.get, "/v1/alerts"), as: Items<Alert>.self).items
    }

    /// One of my alerts.
    public func alert(_ id: UUID) async throws -> Alert {
        try await client.call(Endpoint(.get, "/v1/alerts/\(segment(id))"))
    }

    /// Deletes one of my alerts.
    public func deleteAlert(_ id: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/alerts/\(segment(id))"))
    }

    /// New matches since my last read (oldest first); moves the read marker past them.
    public func alertMatches(limit: Int? = nil) async throws -> AlertMatches {
        try await client.call(Endpoint(.get, "/v1/alerts/matches", query: query([("limit", limit)])))
    }

    /// Matches of my alerts as they happen (`GET /v1/alerts/stream`, server-sent events),
    /// oldest first: from after `matchId` (an ``AlertMatch/id``), else from my read marker.
    /// Following the stream does not move the marker.
    ///
    /// It runs until the consuming task is cancelled: a dropped connection, or a stream the
    /// server ended when the session's access token expired, is reconnected after a back-off
    /// (refreshing the session when it is refused with 401) and resumes after the last match
    /// received, so each match comes once. It throws when the session cannot be refreshed
    /// (``CommonsProblem`` 401), when no one is signed in, and on other refusals.
    ///
    /// ```swift
    /// for try await match in commons.geo.liveAlertMatches() { show(match.listing) }
    /// ```
    public func liveAlertMatches(after matchId: String? = nil) -> AsyncThrowingStream<AlertMatch, any Error> {
        client.live(LiveStream(endpoint: Endpoint(.get, "/v1/alerts/stream"), eventType: "match"), after: matchId)
    }
}
