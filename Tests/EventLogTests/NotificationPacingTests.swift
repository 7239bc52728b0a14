import Testing

@testable import EventLogPostgres

@Suite("the pace of an append's NOTIFY")
struct NotificationPacingTests {
    @Test("the first send starts at once; the next waits out the spacing from the last start, and after a quiet spell starts at once")
    func pacing() {
        var pacing = NotificationPacing(spacing: .milliseconds(5))
        let start = ContinuousClock.now
        #expect(pacing.delay(at: start) == .zero)
        pacing.started(at: start)
        #expect(pacing.delay(at: start + .milliseconds(1)) == .milliseconds(4))
        #expect(pacing.delay(at: start + .milliseconds(5)) == .zero)
        #expect(pacing.delay(at: start + .seconds(3)) == .zero)
        pacing.started(at: start + .milliseconds(12))
        #expect(pacing.delay(at: start + .milliseconds(14)) == .milliseconds(3))
    }
}
