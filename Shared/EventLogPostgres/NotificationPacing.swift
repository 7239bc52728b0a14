/// When the next `NOTIFY` may start: at most one per `spacing`, counted from the start of
/// the last, and at once when the last started longer ago: a pause of `spacing` after each
/// send would make the next append wait even after a quiet spell, and a post's notification
/// late by as much.
package struct NotificationPacing: Sendable {
    package let spacing: Duration
    package private(set) var lastStart: ContinuousClock.Instant?

    package init(spacing: Duration) {
        self.spacing = spacing
    }

    /// How long a send that is due at `now` waits.
    package func delay(at now: ContinuousClock.Instant) -> Duration {
        guard let lastStart else { return .zero }
        return max(.zero, lastStart + spacing - now)
    }

    /// Records that a send started at `now`.
    package mutating func started(at now: ContinuousClock.Instant) {
        lastStart = now
    }
}
