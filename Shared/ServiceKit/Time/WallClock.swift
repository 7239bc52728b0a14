import Foundation
import Synchronization

/// Where a service reads the time of day: the machine's in production, a ``ManualClock``'s
/// in tests, so that expiry, renewal, monthly donations and token lifetimes are tested
/// without waiting. Domain code never reads a clock: it takes the time as an argument.
public struct WallClock: Sendable {
    /// The time now.
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The machine's clock.
    public static let system = WallClock { Date() }
}

/// A clock that stands still until it is moved: for tests.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) { current = Mutex(start) }

    /// The ``WallClock`` that reads this one.
    public var clock: WallClock { WallClock { self.now() } }

    /// The time it stands at.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(interval) } }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
