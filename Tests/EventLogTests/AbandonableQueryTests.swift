import EventLogTestSupport
import Synchronization
import Testing

@testable import EventLogPostgres

/// A PostgreSQL query written onto a connection the server is closing can stay unanswered and
/// deaf to cancellation; the store's queries must still let their caller go.
@Suite("a query that never answers")
struct AbandonableQueryTests {
    @Test("the caller gets CancellationError as soon as it is cancelled")
    func cancellation() async throws {
        let deaf = DeafOperation()
        let caller = Task { try await abandonable(patience: .seconds(600)) { await deaf.run() } }
        try await waitFor("the operation to start") { deaf.started }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        deaf.release()
    }

    @Test("after its patience the caller gets an error that reads as 'PostgreSQL is unavailable'")
    func patience() async throws {
        let deaf = DeafOperation()
        let error = await #expect(throws: PostgresQueryAbandoned.self) {
            try await abandonable(patience: .milliseconds(200)) { await deaf.run() }
        }
        #expect(error.map(PostgresAvailability.isUnavailable) == true)
        deaf.release()
    }

    @Test("an answer, or an error, comes back as it is")
    func answers() async throws {
        #expect(try await abandonable(patience: .seconds(5)) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await abandonable(patience: .seconds(5)) { () async throws -> Int in throw Refused() } }
    }
}

/// An operation that ignores cancellation and returns 0 only once released.
private final class DeafOperation: Sendable {
    private struct State {
        var started = false
        var released = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    var started: Bool { state.withLock { $0.started } }

    func run() async -> Int {
        await withCheckedContinuation { continuation in
            let releasedAlready = state.withLock { state in
                state.started = true
                if !state.released { state.waiter = continuation }
                return state.released
            }
            if releasedAlready { continuation.resume() }
        }
        return 0
    }

    func release() {
        let waiter = state.withLock { state in
            state.released = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
