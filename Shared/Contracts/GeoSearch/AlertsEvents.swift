import EventLog
import Foundation

// Events of geo-search's saved searches. Geo-search owns these streams and no others:
// `alert-<alertId>` for an alert's life, `alertreads-<accountId>` for how far its owner has read.

/// Someone saved a search, to hear of new listings that match it. Stream: `alert-<alertId>`.
///
/// The search is sealed with the owner's personal-data key, because its centre is often
/// home: once the account is deleted and its key destroyed, nobody can read it again.
public struct AlertCreated: EventContract, Equatable {
    public static let eventType = "AlertCreated"
    public var alertId: UUID
    public var ownerId: UUID
    /// The search as geo-search's `AlertCriteria`, sealed.
    public var criteria: Sealed
    public var createdAt: Date

    public init(alertId: UUID, ownerId: UUID, criteria: Sealed, createdAt: Date) {
        self.alertId = alertId
        self.ownerId = ownerId
        self.criteria = criteria
        self.createdAt = createdAt
    }
}

/// The owner deleted an alert. Stream: `alert-<alertId>`.
public struct AlertDeleted: EventContract, Equatable {
    public static let eventType = "AlertDeleted"
    public var alertId: UUID
    public var ownerId: UUID

    public init(alertId: UUID, ownerId: UUID) {
        self.alertId = alertId
        self.ownerId = ownerId
    }
}

/// The owner read their alerts' matches up to the listing posted at `upTo` (a checkpoint of
/// the log, as text). Stream: `alertreads-<ownerId>`.
public struct AlertMatchesRead: EventContract, Equatable {
    public static let eventType = "AlertMatchesRead"
    public var ownerId: UUID
    public var upTo: String

    public init(ownerId: UUID, upTo: String) {
        self.ownerId = ownerId
        self.upTo = upTo
    }
}
