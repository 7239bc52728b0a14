import Contracts
import DonationsDomain
import EventLog
import Foundation
import Hummingbird
import Logging
import ReadModel
import ServiceKit
import ServiceLifecycle

/// The donations service (port 8084): organisations (charities and donation centres),
/// wallets, donations, monthly donations, impact and sharing.
///
/// Its own settings, beyond the kit's:
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMMONS_RECURRING_INTERVAL_SECONDS` | `60` | how often the scheduler looks for monthly donations due (1–86400) |
/// | `COMMONS_PAYMENTS` | unset | the card processor for top-ups: unset, none (top-ups refused); `simulated` (see ``PaymentsSetting``) |
public enum DonationsService {
    public static let name = "donations"
    public static let port = 8084
    /// The service's OpenAPI document (also served at its `/openapi.json`).
    public static var openAPI: OpenAPIDocument { DonationsAPI.document.administered(as: name) }
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [DonationsProjection()]

    /// The service, configured from `environment` (the card processor is the one
    /// `COMMONS_PAYMENTS` names), reading the time from `clock`.
    public static func definition(environment: EnvironmentVariables = EnvironmentVariables(), clock: WallClock = .system) throws -> ServiceDefinition
    {
        let interval = try environment.integer("COMMONS_RECURRING_INTERVAL_SECONDS", default: 60, in: 1...86_400)
        let payments = try PaymentsSetting.provider(from: environment)
        return ServiceDefinition(
            name: name, defaultPort: port, projections: projections, openAPI: openAPI,
            backgroundServices: { runtime in
                [scheduler(runtime: runtime, clock: clock, interval: .seconds(interval))]
            }
        ) { router, runtime in
            let commands = DonationsCommands(store: runtime.store, vault: runtime.keyVault, clock: clock, payments: payments)
            DonationsAPI(commands: commands, runtime: runtime).addRoutes(to: router)
        }
    }

    /// A scheduler of monthly donations on `runtime`'s log and read model: the service runs
    /// one; a test may make more (as replicas would) and tick them by hand.
    public static func scheduler(runtime: ServiceRuntime, clock: WallClock, interval: Duration = .seconds(60)) -> RecurringScheduler {
        RecurringScheduler(
            commands: DonationsCommands(store: runtime.store, vault: runtime.keyVault, clock: clock),
            queries: DonationQueries(pool: runtime.readModel.pool), interval: interval, logger: runtime.logger)
    }
}
