import Contracts
import EventLog
import Foundation
import GeoSearchDomain
import Hummingbird
import ReadModel
import ServiceKit

/// The geo-search service (port 8083): what is near me — items, donation centres, charities.
///
/// It builds its read model from the listings and organisations events (and `AccountDeleted`,
/// to drop a deleted account's listings and alerts). The only streams it writes are its
/// saved searches' (`alert-…`, `alertreads-…`). Routes live under `/v1/nearby`, `/v1/area`
/// and `/v1/alerts`.
///
/// Its own settings, beyond the kit's:
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMMONS_SEARCH_SCAN_LIMIT` | `50000` | the most listings one search may read before it is refused with 422 (100–10,000,000) |
/// | `COMMONS_SEARCH_MEMORY_LISTINGS` | `250000` | the most searchable listings kept in memory for nearby searches (about 600 bytes each and twice its title and description; `0` keeps none, past it every search reads SQLite) |
public enum GeoSearchService {
    public static let name = "geo-search"
    public static let port = 8083
    /// The service's OpenAPI document (also served at its `/openapi.json`).
    public static var openAPI: OpenAPIDocument { GeoSearchAPI.document.administered(as: name) }
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [GeoSearchProjection(), AlertsProjection()]

    /// The most listings one search reads by default (see `ScanBudget`): about 25 ms of work here.
    public static let defaultScanLimit = 50_000

    /// The most searchable listings kept in memory by default (see ``ListingPlaces``).
    public static let defaultMemoryListings = 250_000

    /// The service, configured from `environment`, reading the time from `clock`.
    public static func definition(environment: EnvironmentVariables = EnvironmentVariables(), clock: WallClock = .system) throws -> ServiceDefinition
    {
        let scanLimit = try environment.integer("COMMONS_SEARCH_SCAN_LIMIT", default: defaultScanLimit, in: 100...10_000_000)
        let memoryListings = try environment.integer("COMMONS_SEARCH_MEMORY_LISTINGS", default: defaultMemoryListings, in: 0...10_000_000)
        var definition = ServiceDefinition(name: name, defaultPort: port, projections: projections, openAPI: openAPI) { router, runtime in
            GeoSearchAPI(readModel: runtime.readModel, scanLimit: scanLimit, places: ListingPlaces(limit: memoryListings, logger: runtime.logger))
                .addRoutes(to: router)
            AlertsAPI(runtime: runtime, clock: clock).addRoutes(to: router)
        }
        // Nearby and area searches read the places alone: a search after a post waits for them,
        // not for the alerts (nor for the revocation list when it is anonymous).
        definition.projectionsByPath = ProjectionsByPath([
            "/v1/nearby/": [GeoSearchProjection.projectionName], "/v1/area/": [GeoSearchProjection.projectionName],
        ])
        return definition
    }
}

extension GeoSearchError: ProblemConvertible {
    /// The problem document for this error: a 400 with every bad field.
    public var problem: Problem {
        switch self {
        case .invalid(let errors): .malformed("The query has invalid or missing fields.", errors: errors)
        }
    }
}
