import Foundation

/// Back-off after repeated failed sign-ins: after `freeAttempts` failures in a row, each
/// further attempt must wait twice as long as the last, from 30 s up to 1 hour.
public struct SignInLockout: Sendable, Equatable {
    public var failures: Int
    public var lastFailure: Date?

    public static let freeAttempts = 5

    public init(failures: Int = 0, lastFailure: Date? = nil) {
        self.failures = failures
        self.lastFailure = lastFailure
    }

    /// Until when sign-in is refused, or nil when it is open now.
    public func lockedUntil(now: Date) -> Date? {
        guard failures >= Self.freeAttempts, let lastFailure else { return nil }
        let exponent = min(failures - Self.freeAttempts, 7)
        let until = lastFailure.addingTimeInterval(min(30 * pow(2, Double(exponent)), 3_600))
        return until > now ? until : nil
    }

    public func recordingFailure(at date: Date) -> SignInLockout {
        SignInLockout(failures: failures + 1, lastFailure: date)
    }
}
