/// When the next `NOTIFY` may start: at most one per `spacing`, counted from the start of
/// the last, and at once when the last started longer ago. (Before, each send was followed
/// by a pause of `spacing`, during which the next append waited even after a quiet spell:
/// in issue 17's post → visible bench, a post every 4–5 ms had its notification 1–3 ms late.)
struct NotificationPacing: Sendable {
    let spacing: Duration
    private(set) var lastStart: ContinuousClock.Instant?

    init(spacing: Duration) {
        self.spacing = spacing
    }

    /// How long a send that is due at `now` waits.
    func delay(at now: ContinuousClock.Instant) -> Duration {
        guard let lastStart else { return .zero }
        return max(.zero, lastStart + spacing - now)
    }

    /// Records that a send started at `now`.
    mutating func started(at now: ContinuousClock.Instant) {
        lastStart = now
    }
}
