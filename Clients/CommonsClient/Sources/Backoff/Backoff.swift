/// Capped exponential back-off with jitter: the one policy behind every retry loop (the
/// token verifier, projection runners, the log's LISTEN connection, `commons up`'s
/// supervisor, the SDK).
///
/// It lives in the SDK's package, not with the server's shared code, because the server and
/// the apps retry the same way and the SDK must stand alone: an app that depends on
/// `CommonsClient` gets it without anything of the server, and the server takes it from here.
///
/// Retry `n` (from 1) waits up to `initial · 2ⁿ⁻¹`, never more than `maximum`; `jitter` is
/// the share of that wait drawn at random ("equal jitter" at 0.5: somewhere between half and
/// all of it), so that many clients that failed together do not all come back together.
public struct Backoff: Sendable, Equatable {
    /// The longest wait before the first retry.
    public var initial: Duration
    /// The longest wait before any retry.
    public var maximum: Duration
    /// The share of each wait that is random, 0 (none) to 1 (anything from zero up).
    public var jitter: Double

    public init(initial: Duration, maximum: Duration, jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The longest wait before retry `attempt` (1 is the first retry).
    public func ceiling(forAttempt attempt: Int) -> Duration {
        min(initial * (1 << min(max(attempt, 1) - 1, 30)), maximum)
    }

    /// The wait before retry `attempt`: its ``ceiling(forAttempt:)`` less a random share of at
    /// most `jitter` of it.
    public func delay(forAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(forAttempt: attempt)
        guard jitter > 0 else { return ceiling }
        return ceiling * (1 - jitter * Double.random(in: 0..<1, using: &generator))
    }

    /// The wait before retry `attempt`, drawn with the system's generator.
    public func delay(forAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(forAttempt: attempt, using: &generator)
    }

    /// A fresh run of retries under this policy.
    public func attempts() -> BackoffAttempts { BackoffAttempts(policy: self) }
}

/// The retries of one loop: each ``next()`` is the wait before the next retry, longer each
/// time; ``reset()`` after a success starts again from the shortest.
public struct BackoffAttempts: Sendable {
    public let policy: Backoff
    /// Retries handed out since the last reset.
    public private(set) var count = 0

    public init(policy: Backoff) { self.policy = policy }

    /// The wait before the next retry.
    public mutating func next() -> Duration {
        count += 1
        return policy.delay(forAttempt: count)
    }

    /// The longest wait the next retry can get (for a log line before it is drawn).
    public var upcomingCeiling: Duration { policy.ceiling(forAttempt: count + 1) }

    /// Starts again from the shortest wait.
    public mutating func reset() { count = 0 }
}
