import Foundation
import Hummingbird
import Synchronization

/// Token buckets per client address and per account, with the `RateLimit` and
/// `RateLimit-Policy` headers of the IETF draft on every response and a 429 with
/// `Retry-After` when a bucket is empty.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limiter: RateLimiter
    let problems: ProblemMiddleware
    /// `METHOD /path` of the routes with a budget of their own per client address.
    var credentialRoutes: Set<String> = []
    var credentialLimiter: RateLimiter?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/health") || request.uri.path == "/metrics" { return try await next(request, context) }
        let route = "\(request.method.rawValue) \(request.uri.path)"
        if let credentialLimiter, credentialRoutes.contains(route) {
            // Per address even when signed in: a token does not buy more guesses.
            let guarded = credentialLimiter.take("\(route) client:\(context.clientAddress)")
            guard guarded.allowed else {
                var problem = Problem.rateLimited(retryAfter: guarded.resetSeconds)
                problem.headers["RateLimit"] = guarded.header
                problem.headers["RateLimit-Policy"] = credentialLimiter.policy
                throw problem
            }
        }
        let key = context.identity.map { "account:\($0.accountId)" } ?? "client:\(context.clientAddress)"
        let decision = limiter.take(key)
        guard decision.allowed else {
            var problem = Problem.rateLimited(retryAfter: decision.resetSeconds)
            problem.headers["RateLimit"] = decision.header
            problem.headers["RateLimit-Policy"] = limiter.policy
            throw problem
        }
        do {
            var response = try await next(request, context)
            response.headers[.rateLimit] = decision.header
            response.headers[.rateLimitPolicy] = limiter.policy
            return response
        } catch {
            // Error responses carry the headers too, so clients can pace themselves.
            var problem = problems.problem(for: error, request: request, context: context)
            problem.headers["RateLimit"] = decision.header
            problem.headers["RateLimit-Policy"] = limiter.policy
            throw problem
        }
    }
}

/// A token bucket per key: `limit` requests per `window`, refilled continuously.
///
/// Memory is bounded by `capacity` keys. Past it, the buckets that have refilled completely
/// are dropped first (a new bucket starts full, so nothing is lost); if that is not enough
/// (more than `capacity` keys busy within one window, e.g. a client cycling addresses), the
/// fuller half goes. A bucket that is being held back is the last to go, so churn cannot
/// reset anyone's limit but its own.
public final class RateLimiter: Sendable {
    public struct Decision {
        public var allowed: Bool
        public var remaining: Int
        public var resetSeconds: Int
        var header: String { "\"default\";r=\(remaining);t=\(resetSeconds)" }
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    public let limit: Int
    public let window: Duration
    /// How many keys are kept at most.
    public let capacity: Int
    private let perSecond: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(limit: Int, window: Duration = .seconds(60), capacity: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.capacity = max(2, capacity)
        perSecond = Double(limit) / (Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18)
    }

    var policy: String { "\"default\";q=\(limit);w=\(window.components.seconds)" }

    /// How many keys are held now.
    public var count: Int { buckets.withLock { $0.count } }

    /// Takes one token from `key`'s bucket.
    public func take(_ key: String, now: ContinuousClock.Instant = .now) -> Decision {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= capacity { evict(from: &buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: Double(limit), updated: now)
            bucket.tokens = tokens(of: bucket, at: now)
            bucket.updated = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            buckets[key] = bucket
            let reset = Int(((Double(limit) - bucket.tokens) / perSecond).rounded(.up))
            let wait = allowed ? reset : Int(((1 - bucket.tokens) / perSecond).rounded(.up))
            return Decision(allowed: allowed, remaining: Int(bucket.tokens), resetSeconds: max(1, wait))
        }
    }

    private func tokens(of bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(Double(limit), bucket.tokens + seconds * perSecond)
    }

    /// Drops the full buckets; if fewer than a quarter of `capacity` go, also the fuller
    /// half of the rest, so that eviction stays rare.
    private func evict(from buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { tokens(of: $0.value, at: now) < Double(limit) }
        guard buckets.count > capacity * 3 / 4 else { return }
        let fullest = buckets.map { (key: $0.key, tokens: tokens(of: $0.value, at: now)) }
            .sorted { $0.tokens > $1.tokens }
            .prefix(buckets.count / 2)
        for entry in fullest { buckets.removeValue(forKey: entry.key) }
    }
}
