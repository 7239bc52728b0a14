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
/// | `COMMONS_PHOTO_JOBS` | cores − 1 (at least 1) | photos cleaned at once by one process |
/// | `COMMONS_PHOTO_QUEUE` | `8` | uploads that may wait for a job; past it, 503 |
/// | `COMMONS_PHOTO_JOBS_PER_ACCOUNT` | `2` | one account's uploads running or waiting; past it, 429 |
public struct ListingsSettings: Sendable {
    public var lifetime: ListingState.Lifetime
    public var sweepInterval: Duration
    public var reportThreshold: Int
    /// How long after registering a reporter's report weighs fully (``ReportTally/weight(registeredAt:now:establishedAfter:)``).
    public var reporterEstablishedAfter: TimeInterval
    /// Photos cleaned at once, waiting, and per account (``PhotoJobs``).
    public var photoJobs: Int
    public var photoQueue: Int
    public var photoJobsPerAccount: Int

    /// Reads the settings; a bad value throws a ``ConfigurationError`` naming the variable.
    public init(environment: EnvironmentVariables) throws {
        let days = try environment.integer("COMMONS_LISTING_LIFETIME_DAYS", default: 30, in: 1...365)
        let hours = try environment.integer("COMMONS_LISTING_RENEW_HOURS", default: 24, in: 0...8_760)
        lifetime = ListingState.Lifetime(duration: Double(days) * 86_400, renewInterval: Double(hours) * 3_600)
        sweepInterval = .seconds(try environment.integer("COMMONS_LISTING_EXPIRY_SWEEP_SECONDS", default: 60, in: 1...86_400))
        reportThreshold = try environment.integer("COMMONS_LISTING_REPORT_THRESHOLD", default: 3, in: 1...1_000)
        reporterEstablishedAfter = Double(try environment.integer("COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS", default: 7, in: 0...365)) * 86_400
        // One core is left to the service's reads.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        photoJobs = try environment.integer("COMMONS_PHOTO_JOBS", default: max(1, cores - 1), in: 1...256)
        photoQueue = try environment.integer("COMMONS_PHOTO_QUEUE", default: 8, in: 0...1_000)
        photoJobsPerAccount = try environment.integer("COMMONS_PHOTO_JOBS_PER_ACCOUNT", default: 2, in: 1...100)
    }
}
