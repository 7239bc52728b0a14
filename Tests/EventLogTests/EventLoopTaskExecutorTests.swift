import NIOCore
import NIOPosix
import Testing

@testable import EventLogPostgres

/// The executor the store's own connections run their statements on (issue 17): a task that
/// prefers an event loop runs there from its first line to its last, awaits included.
@Suite("a task on an event loop")
struct EventLoopTaskExecutorTests {
    @Test("a task that prefers an event loop runs on it before and after each await, and its result reaches the caller")
    func runsOnTheLoopThroughAwaits() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let executor = EventLoopTaskExecutor(loop)
        let seen = try await Task(executorPreference: executor) { () async throws -> [Bool] in
            var seen = [loop.inEventLoop]
            await Task.yield()
            seen.append(loop.inEventLoop)
            try await Task.sleep(for: .milliseconds(2))
            seen.append(loop.inEventLoop)
            // A future completed by another loop resumes this task on its own one.
            let other = MultiThreadedEventLoopGroup.singleton.next() === loop ? MultiThreadedEventLoopGroup.singleton.next() : loop
            try await other.submit {}.get()
            seen.append(loop.inEventLoop)
            return seen
        }.value
        #expect(seen == [true, true, true, true])
        #expect(!loop.inEventLoop)
    }

    @Test("abandonable runs its operation on the executor it is given, and on none without one")
    func abandonableOnTheExecutor() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        #expect(try await abandonable(patience: .seconds(5), on: EventLoopTaskExecutor(loop)) { loop.inEventLoop })
        #expect(try await !abandonable(patience: .seconds(5)) { loop.inEventLoop })
    }

    @Test("an operation that outlasts its patience on the loop is abandoned, and the loop stays free")
    func abandonedOnTheLoop() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        await #expect(throws: PostgresQueryAbandoned.self) {
            try await abandonable(patience: .milliseconds(50), on: EventLoopTaskExecutor(loop)) {
                try await Task.sleep(for: .seconds(30))
            }
        }
        #expect(try await loop.submit { 42 }.get() == 42)
    }
}
