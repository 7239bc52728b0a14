import Contracts
import EventLog
import Foundation

/// The open reports of a listing: who reported it since the last resolution.
public struct ReportTally: Sendable, Equatable {
    public var openReporters: Set<UUID> = []
    public var version: Int64 = 0

    public init() {}

    public static func replay(_ events: [any EventContract], version: Int64) -> ReportTally {
        var tally = ReportTally()
        for event in events {
            switch event {
            case let reported as ListingReported: tally.openReporters.insert(reported.reporterId)
            case is ListingReportsResolved: tally.openReporters = []
            default: break
            }
        }
        tally.version = version
        return tally
    }

    /// True when `threshold` distinct accounts have reported the listing since the last resolution.
    public func reachesThreshold(_ threshold: Int) -> Bool { openReporters.count >= threshold }
}

extension ListingState {
    /// Hiding a listing pending review; nothing when it is hidden already or no longer up.
    public func hide() -> [any EventContract] {
        guard let id, ![.hidden, .given, .sold, .withdrawn].contains(storedStatus) else { return [] }
        return [ListingStatusChanged(listingId: id, status: .hidden)]
    }

    /// Showing a hidden listing again, in the status it had before.
    public func unhide() -> [any EventContract] {
        guard let id, storedStatus == .hidden else { return [] }
        return [ListingStatusChanged(listingId: id, status: statusBeforeHidden ?? .available)]
    }
}
