import ServiceKit
import Synchronization
import Testing

/// `withDeadline`, which every request runs under (`COMMONS_REQUEST_DEADLINE`).
@Suite("request deadlines")
struct WithDeadlineTests {
    /// What an operation saw: whether it was cancelled, and whether it had ended.
    private final class Trace: Sendable {
        private let state = Mutex((cancelled: false, ended: false))
        var cancelled: Bool { state.withLock { $0.cancelled } }
        var ended: Bool { state.withLock { $0.ended } }
        func cancel() { state.withLock { $0.cancelled = true } }
        func end() { state.withLock { $0.ended = true } }
    }

    @Test("an operation within its deadline returns its value or its own error")
    func withinTheDeadline() async throws {
        #expect(try await withDeadline(.seconds(5)) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await withDeadline(.seconds(5)) { () async throws -> Int in throw Refused() } }
    }

    @Test("an operation past its deadline is cancelled and has ended when DeadlinePassed is thrown")
    func pastTheDeadline() async throws {
        let trace = Trace()
        await #expect(throws: DeadlinePassed.self) {
            try await withDeadline(.milliseconds(50)) {
                defer { trace.end() }
                do { try await Task.sleep(for: .seconds(30)) } catch {
                    trace.cancel()
                    throw error
                }
            }
        }
        // Cancelled: the deadline ended it, not its own 30 s, however long the machine took.
        #expect(trace.cancelled)
        #expect(trace.ended)
    }

    @Test("cancelling the caller cancels the operation, which has ended when the call returns")
    func callerCancelled() async throws {
        let trace = Trace()
        let caller = Task {
            try await withDeadline(.seconds(30)) {
                defer { trace.end() }
                do { try await Task.sleep(for: .seconds(30)) } catch {
                    trace.cancel()
                    throw error
                }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(trace.cancelled)
        #expect(trace.ended)
    }
}
