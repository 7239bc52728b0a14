import Foundation
import Synchronization

/// Where the listings service reads the time, so that expiry and renewal can be tested
/// without waiting.
public struct ListingsClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The machine's clock.
    public static let system = ListingsClock { Date() }
}

/// A clock that stands still until moved on: for tests.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) { current = Mutex(start) }

    public var clock: ListingsClock { ListingsClock { self.current.withLock { $0 } } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(interval) } }
}
