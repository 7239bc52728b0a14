import Backoff
import Testing

/// A generator that returns the same number every time, to pin the random share.
private struct Fixed: RandomNumberGenerator {
    let value: UInt64
    mutating func next() -> UInt64 { value }
}

@Suite("back-off")
struct BackoffTests {
    let policy = Backoff(initial: .milliseconds(100), maximum: .seconds(1))

    @Test("each retry's longest wait doubles from the first, up to the cap")
    func ceilings() {
        #expect(
            (1...6).map { policy.ceiling(forAttempt: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
            ])
        #expect(policy.ceiling(forAttempt: 10_000) == .seconds(1), "no overflow however long it fails")
    }

    @Test("equal jitter: every wait lies between half its ceiling and all of it, and waits differ")
    func jitterStaysInRange() {
        var seen = Set<Duration>()
        for attempt in 1...8 {
            for _ in 0..<200 {
                let wait = policy.delay(forAttempt: attempt)
                let ceiling = policy.ceiling(forAttempt: attempt)
                #expect(wait <= ceiling && wait >= ceiling / 2)
                seen.insert(wait)
            }
        }
        #expect(seen.count > 100, "the waits are spread, not one value")
        var lowest = Fixed(value: 0)
        var highest = Fixed(value: .max)
        #expect(policy.delay(forAttempt: 3, using: &lowest) == .milliseconds(400))
        #expect(policy.delay(forAttempt: 3, using: &highest) >= .milliseconds(200))
        #expect(policy.delay(forAttempt: 3, using: &highest) < .milliseconds(201))
    }

    @Test("without jitter the wait is the ceiling; a reset starts again from the first")
    func attemptsAndReset() {
        var retries = Backoff(initial: .milliseconds(500), maximum: .seconds(30), jitter: 0).attempts()
        #expect([retries.next(), retries.next(), retries.next()] == [.milliseconds(500), .seconds(1), .seconds(2)])
        #expect(retries.upcomingCeiling == .seconds(4))
        retries.reset()
        #expect(retries.next() == .milliseconds(500))
    }
}
