import Foundation
import ServiceKit
import Synchronization
import Testing

@testable import ListingsService

/// The bound on photo cleaning: slots, a queue, a share per account, and waiting jobs
/// whose request is gone never starting.
@Suite("photo jobs")
struct PhotoJobsTests {
    /// Jobs that run until let go, counting how many started.
    final class Gate: Sendable {
        private let started = Mutex(0)
        private let open = DispatchSemaphore(value: 0)

        var count: Int { started.withLock { $0 } }

        func job() -> @Sendable () throws -> Int {
            { [self] in
                started.withLock { $0 += 1 }
                open.wait()
                return 1
            }
        }

        func release(_ jobs: Int) { for _ in 0..<jobs { open.signal() } }
    }

    @Test("one slot and a queue of two: past the queue 503, past an account's two 429, each with Retry-After; a waiting job cancelled never runs")
    func bounds() async throws {
        let jobs = PhotoJobs(slots: 1, queue: 2, perAccount: 2)
        let gate = Gate()
        let (x, y, z) = (UUID(), UUID(), UUID())
        let first = Task { try await jobs.run(for: x, gate.job()) }
        #expect(try await eventually { gate.count == 1 })
        let second = Task { try await jobs.run(for: x, gate.job()) }
        #expect(try await eventually { jobs.waitingCount == 1 })
        let cancelled = Task { try await jobs.run(for: y, gate.job()) }
        #expect(try await eventually { jobs.waitingCount == 2 })

        // Told before an upload's body is read, by the same rule.
        #expect(jobs.refusal(for: x)?.status == .tooManyRequests)
        #expect(jobs.refusal(for: z)?.status == .serviceUnavailable)
        let accountFull = try await refusal(jobs, x)
        #expect(accountFull?.status == .tooManyRequests && accountFull?.headers["Retry-After"] != nil)
        let processFull = try await refusal(jobs, z)
        #expect(processFull?.status == .serviceUnavailable && processFull?.headers["Retry-After"] != nil)

        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(jobs.waitingCount == 1)
        #expect(jobs.refusal(for: z) == nil)
        let third = Task { try await jobs.run(for: z, gate.job()) }
        #expect(try await eventually { jobs.waitingCount == 2 })
        gate.release(3)
        #expect(try await [first.value, second.value, third.value] == [1, 1, 1])
        #expect(gate.count == 3, "the cancelled job never started")
    }

    /// The problem `jobs` refuses a job of `account` with, or nil when it takes it or queues it
    /// (a queued one is cancelled again).
    private func refusal(_ jobs: PhotoJobs, _ account: UUID) async throws -> Problem? {
        let waiting = jobs.waitingCount
        let outcome = Mutex<(any Error)??>(nil)
        let attempt = Task {
            do {
                _ = try await jobs.run(for: account) { 0 }
                outcome.withLock { $0 = .some(nil) }
            } catch {
                outcome.withLock { $0 = .some(error) }
            }
        }
        _ = try await eventually { outcome.withLock { $0 != nil } || jobs.waitingCount > waiting }
        guard let ended = outcome.withLock({ $0 }) else {
            attempt.cancel()
            await attempt.value
            return nil
        }
        return ended as? Problem
    }

    /// Whether `condition` holds within a generous deadline.
    private func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}
