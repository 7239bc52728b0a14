import Contracts
import EventLog
import Foundation

/// Who has asked for a listing: one request per person, so that asking again (a double tap,
/// or a flood) neither grows the owner's list nor the stream every promise reads. After the
/// first, the two talk in their conversation.
public struct RequestLedger: Sendable, Equatable {
    public var requesters: Set<UUID> = []
    /// The version of the requests stream the ledger was read at (0: no request yet).
    public var version: Int64 = 0

    public init() {}

    public static func replay(_ events: [any EventContract], version: Int64) -> RequestLedger {
        var ledger = RequestLedger()
        for case let requested as ListingRequested in events { ledger.requesters.insert(requested.requesterId) }
        ledger.version = version
        return ledger
    }

    /// Refuses a second request from the same person.
    public func admit(_ requester: UUID) throws(ListingError) {
        guard !requesters.contains(requester) else { throw ListingError.alreadyRequested }
    }
}
