import Contracts
import EventLog
import Foundation
import GRDB
import Geo
import GeoSearchDomain
import GeoSearchService
import Hummingbird
import ReadModel
import ServiceKit

/// What `commons bench geo-search` measures, from inside the service: a log of listings over a
/// metro area, the rebuild of the read model from it, and queries through the service's own
/// path beside a brute-force scan of the same rows.
public enum GeoSearchBenchmark {
    /// The listings taxonomy, so that a category filter keeps about a ninth of the listings.
    public static let categories = ["Clothes", "Electronics", "Food", "Furniture", "Sports", "Toys", "Books", "Household", "Other"]
    /// The metro area: about 44 km by 44 km around the middle of the San Francisco Bay.
    public static let metroCenter = (lat: 37.70, lon: -122.25)
    public static let metroHalfSpan = (lat: 0.2, lon: 0.25)

    /// A point in the metro area from two numbers in 0..<1.
    public static func metroPoint(_ u: Double, _ v: Double) -> (lat: Double, lon: Double) {
        (metroCenter.lat + (u * 2 - 1) * metroHalfSpan.lat, metroCenter.lon + (v * 2 - 1) * metroHalfSpan.lon)
    }

    /// Adds `count` posted listings spread evenly over the metro area to an empty log, as an
    /// import (the log's fastest path), with their public points as the listings service computes them.
    public static func fillLog(_ store: any EventStore, count: Int, progress: @Sendable (Int) -> Void) async throws {
        var random = SystemRandomNumberGenerator()
        let batch = 10_000
        var written = 0
        let postedAt = Date(timeIntervalSince1970: 1_790_000_000)
        while written < count {
            var events: [RecordedEvent] = []
            for index in written..<min(count, written + batch) {
                let id = UUID()
                let point = metroPoint(Double.random(in: 0..<1, using: &random), Double.random(in: 0..<1, using: &random))
                let exact = GeoCoordinate(lat: point.lat, lon: point.lon)!
                let publicPoint = PublicLocation(listingId: id, exact: exact).point
                let posted = ListingPosted(
                    listingId: id, ownerId: UUID(), title: "Listing \(index)", description: "Something to give away, number \(index)",
                    category: categories[index % categories.count], price: nil,
                    publicLocation: Coordinate(lat: publicPoint.lat, lon: publicPoint.lon), postedAt: postedAt.addingTimeInterval(Double(index)))
                let new = try EventCatalog.encode(posted)
                events.append(
                    RecordedEvent(
                        checkpoint: Checkpoint(transaction: UInt64(index + 1), position: Int64(index + 1)),
                        stream: "listing-\(id.lowercasedText)", version: 1, id: new.id, type: new.type,
                        schemaVersion: new.schemaVersion, data: new.data, metadata: new.metadata, recordedAt: postedAt))
            }
            _ = try await store.importEvents(events)
            written += events.count
            progress(written)
        }
    }

    /// Rebuilds geo-search's read model from the whole log into a new file under `directory`
    /// and swaps it in, as `commons replay geo-search --swap` does. Returns the events applied.
    /// `progress` is called after each page, as ``ReadModelRebuild/rebuild(projections:from:into:until:pageSize:keys:progress:)`` does.
    public static func rebuild(from store: any EventStore, directory: URL, progress: ReadModelRebuild.Progress? = nil) async throws -> Int {
        let database = try ReadModelDatabase(directory: directory, name: GeoSearchService.name, projections: GeoSearchService.projections)
        let path = database.newFilePath()
        let applied = try await ReadModelRebuild.rebuild(projections: GeoSearchService.projections, from: store, into: path, progress: progress)
        try database.swap(to: path)
        return applied
    }

    /// Queries over a built read model, in process.
    public struct Queries: Sendable {
        private let readModel: ReadModelDatabase
        private let api: GeoSearchAPI

        public init(directory: URL) throws {
            readModel = try ReadModelDatabase(directory: directory, name: GeoSearchService.name, projections: GeoSearchService.projections)
            api = GeoSearchAPI(readModel: readModel)
        }

        /// The first page (`limit`) of available listings of `category` within `radiusMeters`,
        /// nearest first, through the service's own query path.
        public func nearest(lat: Double, lon: Double, radiusMeters: Double, category: String, limit: Int) async throws -> [UUID] {
            guard let center = GeoCoordinate(lat: lat, lon: lon) else { return [] }
            let query = try NearbyQuery(center: center, radius: radiusMeters / 1_000, unit: .kilometers)
            let filters = ListingFilters(category: category, keywords: nil, status: .available, order: .distance, postedAfter: nil)
            let found = try await api.nearest(query, filters: filters, needed: limit, after: nil)
            return found.sorted { $0.position.precedes($1.position) }.prefix(limit).map(\.item.id)
        }

        /// The same page found without the index: every listing of the category read and measured.
        public func bruteForce(lat: Double, lon: Double, radiusMeters: Double, category: String, limit: Int) async throws -> [UUID] {
            guard let center = GeoCoordinate(lat: lat, lon: lon) else { return [] }
            let rows = try await readModel.pool.read { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT listing_id, lat, lon FROM geo_listings WHERE status = 'available' AND category = ? COLLATE NOCASE
                            """), arguments: [category]
                ).map { row -> (id: String, lat: Double, lon: Double) in (row["listing_id"], row["lat"], row["lon"]) }
            }
            var found: [PagePosition] = []
            for row in rows {
                guard let point = GeoCoordinate(lat: row.lat, lon: row.lon), let id = UUID(uuidString: row.id) else { continue }
                let meters = center.distanceMeters(to: point)
                if meters <= radiusMeters { found.append(.distance(meters, id: id)) }
            }
            return found.sorted { $0.precedes($1) }.prefix(limit).map(\.id)
        }
    }

    /// Serves geo-search over the read model in `directory` and the log `store` on `port` while
    /// `body` runs, with request logs off and no rate limit (one client sends everything).
    public static func serving<T: Sendable>(
        store: any EventStore, directory: URL, port: Int, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        var configuration = try ServiceConfiguration(
            service: GeoSearchService.name, defaultPort: port,
            environment: EnvironmentVariables([
                "COMMONS_DATA_DIR": directory.path, "COMMONS_LOG_LEVEL": "error", "COMMONS_RATE_LIMIT_PER_MINUTE": "1000000",
            ]))
        configuration.host = "127.0.0.1"
        let (application, runtime, _) = try await ServiceApp.build(
            try GeoSearchService.definition(), configuration: configuration, store: store,
            publicKeys: LocalPublicKeySource { SigningKeyRing.generate() })
        let server = Task { try await application.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        while !runtime.isReady { try await Task.sleep(for: .milliseconds(50)) }
        // Ready means caught up; the listener may still be a moment behind.
        try await Task.sleep(for: .milliseconds(300))
        return try await body()
    }
}
