import Foundation
import Synchronization

/// Where the service's commands and scheduler read the time, so that tests can move it.
public protocol DonationsClock: Sendable {
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: DonationsClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until it is moved: for tests of monthly donations.
public final class AdjustableClock: DonationsClock {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    public func set(_ date: Date) { current.withLock { $0 = date } }
}
