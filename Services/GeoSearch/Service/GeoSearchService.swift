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
/// and `/v1/alerts`. It reads no settings beyond the kit's.
public enum GeoSearchService {
    public static let name = "geo-search"
    public static let port = 8083
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [GeoSearchProjection(), AlertsProjection()]

    /// The service.
    public static func definition() -> ServiceDefinition {
        ServiceDefinition(name: name, defaultPort: port, projections: projections, openAPI: GeoSearchAPI.document) { router, runtime in
            GeoSearchAPI(readModel: runtime.readModel).addRoutes(to: router)
            AlertsAPI(runtime: runtime).addRoutes(to: router)
        }
    }
}

extension GeoSearchError {
    /// The problem document for this error: a 400 with every bad field.
    var problem: Problem {
        switch self {
        case .invalid(let errors): .malformed("The query has invalid or missing fields.", errors: errors)
        }
    }
}
