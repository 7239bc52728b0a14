import Contracts
import EventLog
import Foundation
import Hummingbird
import ReadModel
import ServiceKit

/// The shopping-lists service (port 8085): a product catalogue with prices at stores,
/// reviews and favourites, and grocery lists shared between accounts.
///
/// Routes live under `/v1/products`, `/v1/lists` and `/v1/me/favorites`. It writes the
/// `product`, `store`, `list`, `review` and `favorites` streams and reads `account` events
/// (to know who exists, and to forget deleted accounts). It reads no settings beyond the kit's.
public enum ShoppingListsService {
    public static let name = "shopping-lists"
    public static let port = 8085
    /// The service's OpenAPI document (also served at its `/openapi.json`).
    public static var openAPI: OpenAPIDocument { ShoppingListsAPI.document.administered(as: name) }
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [ShoppingProjection()]

    /// The service, reading the time from `clock`. It reads no variables of its own from
    /// `environment`; the kit reads the ones every service shares.
    public static func definition(environment: EnvironmentVariables = EnvironmentVariables(), clock: WallClock = .system) throws -> ServiceDefinition
    {
        ServiceDefinition(name: name, defaultPort: port, projections: projections, openAPI: openAPI) { router, runtime in
            ShoppingListsAPI(runtime: runtime, clock: clock).addRoutes(to: router)
        }
    }
}
