import Backoff

/// When and how often a request is sent again after the network failed or a service was
/// unavailable (502, 503, 504). Only requests that are safe to repeat are retried: reads,
/// PUT and DELETE, and writes that carry an `Idempotency-Key` (the same key every time).
public struct RetryPolicy: Sendable {
    /// Sends in all, the first included (1: never retry).
    public var attempts: Int
    /// The wait before the first retry; each later one doubles it.
    public var initialDelay: Duration
    /// The longest wait between two sends, `Retry-After` included.
    public var maximumDelay: Duration
    /// The share of each wait drawn at random (``Backoff/jitter``), so that the apps a
    /// failure hit together do not all retry together.
    public var jitter: Double

    public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2), jitter: Double = 0.5) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
    }

    public static let `default` = RetryPolicy()
    /// For tests: retries at once.
    public static let immediate = RetryPolicy(attempts: 4, initialDelay: .zero, maximumDelay: .zero)

    private var backoff: Backoff { Backoff(initial: initialDelay, maximum: maximumDelay, jitter: jitter) }

    /// The longest wait before send number `attempt + 1` (attempt counts from 1).
    func delay(after attempt: Int, retryAfter: Int?) -> Duration {
        wait(backoff.ceiling(forAttempt: attempt), retryAfter: retryAfter)
    }

    /// The wait before send number `attempt + 1`: its ``delay(after:retryAfter:)`` less a
    /// random share, but never shorter than the server's `Retry-After`.
    func jitteredDelay(after attempt: Int, retryAfter: Int?) -> Duration {
        wait(backoff.delay(forAttempt: attempt), retryAfter: retryAfter)
    }

    private func wait(_ delay: Duration, retryAfter: Int?) -> Duration {
        min(max(delay, .seconds(retryAfter ?? 0)), maximumDelay)
    }
}
