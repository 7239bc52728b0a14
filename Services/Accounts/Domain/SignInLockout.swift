import Foundation

/// Back-off after failed sign-ins to one address, told apart by the network each came from.
///
/// From one network, after ``freeAttempts`` failures in a row each further attempt waits twice
/// as long as the last, from 30 s up to an hour: a stranger guessing a password gets a few
/// guesses an hour. That does not hold back the address's owner on a network that has not
/// failed. The address as a whole is slowed only gently: once ``gentleAfter`` failures from
/// anywhere have piled up since its last success, attempts from every network are
/// ``gentlePause`` apart, as the large identity providers do.
public struct SignInLockout: Sendable, Equatable {
    /// An attempt that failed, or has not succeeded (yet).
    public struct Failure: Sendable, Equatable {
        /// The client network's tag; nil for attempts recorded before networks were.
        public var network: String?
        public var at: Date

        public init(network: String?, at: Date) {
            self.network = network
            self.at = at
        }
    }

    /// The failures since the last success, oldest first.
    public var failures: [Failure]

    public static let freeAttempts = 5
    public static let gentleAfter = 20
    public static let gentlePause: TimeInterval = 5

    public init(failures: [Failure] = []) {
        self.failures = failures
    }

    /// Until when sign-in from `network` is refused, or nil when it is open now.
    public func lockedUntil(now: Date, network: String?) -> Date? {
        var until = Date.distantPast
        let fromHere = failures.filter { $0.network == network }
        if fromHere.count >= Self.freeAttempts, let last = fromHere.last?.at {
            let exponent = min(fromHere.count - Self.freeAttempts, 7)
            until = last.addingTimeInterval(min(30 * pow(2, Double(exponent)), 3_600))
        }
        if failures.count >= Self.gentleAfter, let last = failures.last?.at {
            until = max(until, last.addingTimeInterval(Self.gentlePause))
        }
        return until > now ? until : nil
    }

    public func recordingFailure(at date: Date, network: String?) -> SignInLockout {
        SignInLockout(failures: failures + [Failure(network: network, at: date)])
    }
}
