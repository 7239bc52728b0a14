import Contracts
import EventLog
import Foundation
import Hummingbird
import ListingsDomain
import PhotoCodec
import ReadModel
import ServiceKit

/// The listings service (port 8082): free items and items for sale, their photos, requests
/// and promises. Routes live under `/v1/listings` and `/v1/images`; settings in ``ListingsSettings``.
public enum ListingsService {
    public static let name = "listings"
    public static let port = 8082
    /// The service's OpenAPI document (also served at its `/openapi.json`).
    public static var openAPI: OpenAPIDocument { ListingsAPI.document.administered(as: name) }
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [ListingsProjection(), ListingsModerationProjection()]

    /// The service, configured from `environment`, reading the time from `clock`.
    public static func definition(environment: EnvironmentVariables = EnvironmentVariables(), clock: WallClock = .system) throws -> ServiceDefinition
    {
        let settings = try ListingsSettings(environment: environment)
        @Sendable func commands(_ runtime: ServiceRuntime) -> ListingsCommands {
            ListingsCommands(store: runtime.store, sealer: PersonalDataSealer(vault: runtime.keyVault), settings: settings, clock: clock)
        }
        let photoJobs = PhotoJobs(slots: settings.photoJobs, queue: settings.photoQueue, perAccount: settings.photoJobsPerAccount)
        return ServiceDefinition(
            name: name, defaultPort: port, projections: projections, openAPI: openAPI,
            bodyLimits: ["/v1/images": PhotoCleaner.maximumUploadBytes],
            backgroundServices: { runtime in [ExpirySweeper(commands: commands(runtime), runtime: runtime, interval: settings.sweepInterval)] }
        ) { router, runtime in
            ListingsAPI(commands: commands(runtime), runtime: runtime, blobs: runtime.blobStore, photoJobs: photoJobs).addRoutes(to: router)
        }
    }

    /// Writes down every expiry that is due now, as the background sweep does; returns how
    /// many listings it expired. For the CLI and tests.
    public static func sweepExpiries(
        runtime: ServiceRuntime, environment: EnvironmentVariables = EnvironmentVariables(),
        clock: WallClock = .system
    ) async throws -> Int {
        let settings = try ListingsSettings(environment: environment)
        let commands = ListingsCommands(store: runtime.store, sealer: PersonalDataSealer(vault: runtime.keyVault), settings: settings, clock: clock)
        return try await ExpirySweeper(commands: commands, runtime: runtime, interval: settings.sweepInterval).sweepOnce()
    }
}
