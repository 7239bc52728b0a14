import CommonsAPI
import Contracts
import Foundation
import Geo
import Hummingbird
import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    func addProductRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/products") { request, _ in
            let query = try Self.productQuery(request.queryValues)
            let (pages, fresh) = (productPages, request.refusesKeptAnswers)
            if !fresh, let page = try ProductQueries.catalogVersion.kept(in: runtime.readModel, { pages.answer(for: query, version: $0) }) {
                return Response.json(encoded: page)
            }
            return Response.json(
                encoded: try await read { db in
                    let version = try ProductQueries.catalogVersion.current(in: db)
                    if !fresh, let version, let page = pages.answer(for: query, version: version) { return page }
                    let (items, next) = try ProductQueries.search(query, in: db)
                    let page = try ResponseJSON.encode(
                        Page(items: items, nextCursor: next.map { SearchCursor.encode($0, queryKey: query.key) }))
                    if let version { pages.store(page, for: query, version: version) }
                    return page
                })
        }
        router.get("/v1/products/{id}") { request, context in
            let id = try context.parameters.uuid("id")
            let point = try Self.point(request.queryValues)
            let caller = context.identity?.accountId
            let found = try await read { db -> (Product, [PlacedOfferRow], Bool?)? in
                guard let product = try ProductQueries.product(id, in: db) else { return nil }
                return (product, try ProductQueries.offers(of: id, in: db), try caller.map { try ProductQueries.isFavorite(id, of: $0, in: db) })
            }
            guard let (product, rows, favorite) = found else { throw Problem.notFound("There is no such product.") }
            return try Response.json(ProductDetail(product: product, offers: Self.offers(rows, from: point), favorite: favorite))
        }
        router.get("/v1/products/{id}/prices") { request, context in
            let id = try context.parameters.uuid("id")
            let (store, limit, start) = try Self.priceHistoryQuery(request.queryValues, product: id)
            return try Response.json(try await priceHistoryPage(of: id, store: store, limit: limit, from: start))
        }
        router.get("/v1/products/{id}/related") { request, context in
            let id = try context.parameters.uuid("id")
            let limit = try Self.limit(request.queryValues, default: 10)
            let related = try await read { db -> [RelatedProduct]? in
                guard try ProductQueries.product(id, in: db) != nil else { return nil }
                return try ProductQueries.related(to: id, limit: limit, in: db)
            }
            guard let related else { throw Problem.notFound("There is no such product.") }
            return try Response.json(["items": related])
        }
    }

    /// The search of `GET /v1/products`; 400 listing every bad field, `q` included.
    package static func productQuery(_ values: [String: String]) throws -> ProductQuery {
        var errors: [String: [String]] = [:]
        var search: FullTextQuery?
        do throws(FullTextQuery.Invalid) { search = try FullTextQuery.parse(values["q"]) } catch { errors["q"] = [error.message] }
        do {
            let query = try ProductQuery(parameters: values, terms: search?.terms)
            if errors.isEmpty { return query }
        } catch let ProductQueryError.invalid(more) {
            errors.merge(more) { $0 + $1 }
        }
        throw Problem.malformed("The query has invalid fields.", errors: errors)
    }

    /// The optional `lat`/`lon` of a product query, and `radius` (km) for "nearby".
    static func point(_ values: [String: String]) throws -> (point: GeoCoordinate, nearbyMeters: Double)? {
        var errors: [String: [String]] = [:]
        let lat = values["lat"].map { Double($0) }
        let lon = values["lon"].map { Double($0) }
        if lat == nil, lon == nil, values["radius"] == nil { return nil }
        if lat == nil || lat! == nil { errors["lat"] = ["must be a latitude from -90 to 90 (with lon)"] }
        if lon == nil || lon! == nil { errors["lon"] = ["must be a longitude from -180 to 180 (with lat)"] }
        if let lat = lat ?? nil, let problem = GeoCoordinate.latitudeProblem(lat) { errors["lat"] = [problem] }
        if let lon = lon ?? nil, let problem = GeoCoordinate.longitudeProblem(lon) { errors["lon"] = [problem] }
        var radius = OfferRanking.defaultNearbyMeters
        if let text = values["radius"] {
            if let km = Double(text), km > 0, km <= 100 {
                radius = km * 1000
            } else {
                errors["radius"] = ["must be a number of km above 0, at most 100"]
            }
        }
        guard errors.isEmpty, let lat = lat ?? nil, let lon = lon ?? nil, let point = GeoCoordinate(lat: lat, lon: lon) else {
            throw Problem.malformed("The query has invalid fields.", errors: errors)
        }
        return (point, radius)
    }

    /// The events one price-history request reads at most, and in reads of how many: a page
    /// of one store's prices ends there (with a next page) rather than read a long stream whole.
    /// A page of every store's prices reads about `limit` events (most add one entry each).
    static let priceHistoryReading = (events: 2_000, batch: 250)

    /// A page of `product`'s price history from its own stream (the read model keeps only
    /// today's prices); 404 when the product has no stream.
    func priceHistoryPage(of product: UUID, store: UUID?, limit: Int, from start: PriceHistoryPage.Position) async throws -> Page<PricePoint> {
        var page = PriceHistoryPage(from: start, limit: limit, store: store)
        let batchSize = store == nil ? min(limit + 1, Self.priceHistoryReading.batch) : Self.priceHistoryReading.batch
        var read = 0
        reading: while true {
            let batch = try await runtime.store.read(
                stream: ShoppingStreams.product(product), from: page.nextVersion, direction: .forwards,
                limit: batchSize)
            if batch.isEmpty, page.nextVersion == 1 { throw Problem.notFound("There is no such product.") }
            for event in batch {
                guard page.add(try CommonsEvents.catalog.decode(event), at: event.recordedAt, version: event.version) else { break reading }
            }
            read += batch.count
            if batch.count < batchSize { break }
            if read >= Self.priceHistoryReading.events {
                page.stopReading()
                break
            }
        }
        return Page(
            items: page.entries.map(PricePoint.init), nextCursor: page.next.map { PriceHistoryPage.cursor($0, product: product, store: store) })
    }

    /// `storeId`, `limit` (1–100, default 100) and `cursor` of a price history; 400 listing every bad field.
    static func priceHistoryQuery(_ values: [String: String], product: UUID) throws -> (store: UUID?, limit: Int, start: PriceHistoryPage.Position) {
        var store: UUID?
        var errors: [String: [String]] = [:]
        if let text = values["storeId"] {
            store = UUID(uuidString: text)
            if store == nil { errors["storeId"] = ["must be a store id"] }
        }
        let (limit, after) = try page(values, defaultLimit: 100, errors: errors) { PriceHistoryPage.position(of: $0, product: product, store: store) }
        return (store, limit, after ?? .start)
    }

    /// The `limit` (1–100) and `cursor` (made for `queryKey`) of a list read in pages; 400
    /// listing both when both are bad.
    static func page(_ values: [String: String], defaultLimit: Int, queryKey: String) throws -> (limit: Int, after: SearchCursor.Position?) {
        try page(values, defaultLimit: defaultLimit) { SearchCursor.decode($0, queryKey: queryKey) }
    }

    /// The `limit` (1–100) and `cursor` (the position `decode` finds in it) of a list read in
    /// pages; 400 listing every bad field, those of `errors` (the query's other fields) too.
    static func page<Position>(
        _ values: [String: String], defaultLimit: Int, errors: [String: [String]] = [:],
        cursor decode: (String) -> Position?
    ) throws -> (limit: Int, after: Position?) {
        var errors = errors
        var limit = defaultLimit
        do { limit = try Self.limit(values, default: defaultLimit) } catch let problem as Problem { errors.merge(problem.errors ?? [:]) { $0 + $1 } }
        var after: Position?
        if let cursor = values["cursor"] {
            after = decode(cursor)
            if after == nil { errors["cursor"] = ["is not a cursor of this list (with these filters)"] }
        }
        guard errors.isEmpty else { throw Problem.malformed("The query has invalid fields.", errors: errors) }
        return (limit, after)
    }

    /// A `limit` from 1 to 100.
    static func limit(_ values: [String: String], default defaultLimit: Int) throws -> Int {
        guard let text = values["limit"] else { return defaultLimit }
        guard let limit = Int(text), (1...100).contains(limit) else {
            throw Problem.malformed("The query has invalid fields.", errors: ["limit": ["must be a whole number from 1 to 100"]])
        }
        return limit
    }

    static func offers(_ rows: [PlacedOfferRow], from place: (point: GeoCoordinate, nearbyMeters: Double)?) -> [Offer] {
        let stores = Dictionary(rows.map { ($0.storeId, $0) }, uniquingKeysWith: { first, _ in first })
        let placed = rows.compactMap { row in
            GeoCoordinate(lat: row.lat, lon: row.lon).map { PlacedOffer(storeId: row.storeId, price: row.price, location: $0) }
        }
        return OfferRanking.rank(placed, from: place?.point, nearbyMeters: place?.nearbyMeters ?? OfferRanking.defaultNearbyMeters).map { ranked in
            let store = stores[ranked.offer.storeId]
            return Offer(
                storeId: ranked.offer.storeId, retailer: store?.retailer ?? "", storeName: store?.storeName ?? "",
                address: store?.address ?? "", lat: ranked.offer.location.lat, lon: ranked.offer.location.lon,
                price: CommonsAPI.Money(ranked.offer.price),
                directionsURL: ranked.offer.location.directionsLink, distanceMeters: ranked.distanceMeters,
                cheapestNearby: ranked.isCheapestNearby)
        }
    }
}

extension PricePoint {
    /// An entry of a product's price history.
    init(_ entry: PriceHistory.Entry) {
        self.init(storeId: entry.storeId, price: entry.price.map(CommonsAPI.Money.init), since: entry.since)
    }
}
