import Foundation
import ListingsDomain
import ServiceKit

/// The listings service's own settings, read once at start.
///
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMMONS_LISTING_LIFETIME_DAYS` | `30` | a listing expires this long after posting or its last renewal |
/// | `COMMONS_LISTING_RENEW_HOURS` | `24` | the least time between two renewals of one listing |
/// | `COMMONS_LISTING_EXPIRY_SWEEP_SECONDS` | `60` | how often due expiries are written to the log |
/// | `COMMONS_LISTING_REPORT_THRESHOLD` | `3` | the weight of open reports that hides a listing pending review |
/// | `COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS` | `7` | how old an account must be for its report to weigh 1 (younger, less) |
public struct ListingsSettings: Sendable {
    public var lifetime: ListingState.Lifetime
    public var sweepInterval: Duration
    public var reportThreshold: Int
    /// How long after registering a reporter's report weighs fully (``ReportTally/weight(registeredAt:now:establishedAfter:)``).
    public var reporterEstablishedAfter: TimeInterval

    /// Reads the settings; a bad value throws a ``ConfigurationError`` naming the variable.
    public init(environment: EnvironmentVariables) throws {
        let days = try environment.integer("COMMONS_LISTING_LIFETIME_DAYS", default: 30, in: 1...365)
        let hours = try environment.integer("COMMONS_LISTING_RENEW_HOURS", default: 24, in: 0...8_760)
        lifetime = ListingState.Lifetime(duration: Double(days) * 86_400, renewInterval: Double(hours) * 3_600)
        sweepInterval = .seconds(try environment.integer("COMMONS_LISTING_EXPIRY_SWEEP_SECONDS", default: 60, in: 1...86_400))
        reportThreshold = try environment.integer("COMMONS_LISTING_REPORT_THRESHOLD", default: 3, in: 1...1_000)
        reporterEstablishedAfter = Double(try environment.integer("COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS", default: 7, in: 0...365)) * 86_400
    }
}
