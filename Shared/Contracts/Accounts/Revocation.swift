import EventLog
import Foundation

/// What every service stops honouring once it has read it: a session ended, or an account
/// deleted. The accounts service records these facts; every service's record of revoked
/// tokens reads them through this type, so that the shared kit names none of accounts' events.
public enum Revocation: Sendable, Equatable {
    case session(UUID)
    case account(UUID)

    /// The categories of the streams that carry revocations.
    public static let categories: Set<String> = ["session", "account"]
    /// The event types that carry one.
    public static let eventTypes: Set<String> = [SessionRevoked.eventType, AccountDeleted.eventType]

    /// The revocation `event` carries; nil for any other event.
    public init?(_ event: any EventContract) {
        switch event {
        case let revoked as SessionRevoked: self = .session(revoked.sessionId)
        case let deleted as AccountDeleted: self = .account(deleted.accountId)
        default: return nil
        }
    }
}
