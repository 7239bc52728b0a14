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

    /// True when the open reports weigh `threshold` or more: each distinct reporter weighs
    /// ``weight(registeredAt:now:establishedAfter:)``, so that accounts made for the purpose
    /// cannot hide a stranger's listing, while established people's reports count at once.
    public func reachesThreshold(_ threshold: Int, registeredAt: [UUID: Date], now: Date, establishedAfter: TimeInterval) -> Bool {
        let weight = openReporters.reduce(0.0) { total, reporter in
            total + Self.weight(registeredAt: registeredAt[reporter], now: now, establishedAfter: establishedAfter)
        }
        return weight >= Double(threshold) - 1e-9
    }

    /// What one reporter's report weighs: from 0 for an account made just now to 1 for one
    /// registered `establishedAfter` ago or earlier; 0 for an account the log does not know.
    public static func weight(registeredAt: Date?, now: Date, establishedAfter: TimeInterval) -> Double {
        guard let registeredAt else { return 0 }
        guard establishedAfter > 0 else { return 1 }
        return min(1, max(0, now.timeIntervalSince(registeredAt) / establishedAfter))
    }
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
