import EventLog
import EventLogTestSupport
import Foundation
import ServiceKit
import Synchronization
import Testing

/// The one write path, on both logs: given a stream, when a command is handled while other
/// writers move the stream, then it decides again, gives up with a 409, or answers 412.
@Suite("the command handler: read, decide, append at the version read")
struct CommandHandlerTests {
    /// Runs `body` on a fresh log of `backend` with a fresh stream name, closing the log after.
    private static func on(_ backend: Backend, _ body: (any EventStore, String) async throws -> Void) async throws {
        let log = try await backend.makeLog()
        do {
            try await body(log.store, "tally-\(UUID().uuidString.lowercased())")
        } catch {
            await log.close()
            throw error
        }
        await log.close()
    }

    /// The number of events in `stream`, as the handler's `load`.
    private static func count(_ stream: String, in store: any EventStore) async throws -> (Int, Int64) {
        let version = try await store.version(of: stream)
        return (Int(version), version)
    }

    @Test("a stream that moved between reading and appending is read and decided again", arguments: Backend.allCases)
    func decidesAgain(backend: Backend) async throws {
        try await Self.on(backend) { store, stream in
            let decided = Mutex<[Int]>([])
            let version = try await CommandHandler(store: store).handle(stream, load: { try await Self.count(stream, in: store) }) { seen, _ in
                decided.withLock { $0.append(seen) }
                // Another writer goes first, once.
                if seen == 0 { _ = try await store.append(to: stream, expected: .noStream, events: [testEvent("Other")]) }
                return .append([testEvent("Mine")]) { $0.streamVersion }
            }
            #expect(decided.withLock { $0 } == [0, 1])
            #expect(version == 2)
            #expect(try await store.read(stream: stream).map(\.type) == ["Other", "Mine"])
        }
    }

    @Test(
        "a stream that keeps moving answers a write conflict after the bounded attempts, and nothing of the command is appended",
        arguments: Backend.allCases)
    func givesUp(backend: Backend) async throws {
        try await Self.on(backend) { store, stream in
            let attempts = Mutex(0)
            await #expect(throws: WriteConflict(stream: stream)) {
                try await CommandHandler(store: store, attempts: 3).handle(stream, load: { try await Self.count(stream, in: store) }) { _, _ in
                    attempts.withLock { $0 += 1 }
                    _ = try await store.append(to: stream, expected: .any, events: [testEvent("Other")])
                    return .append([testEvent("Mine")]) { _ in }
                }
            }
            #expect(attempts.withLock { $0 } == 3)
            let types = try await store.read(stream: stream).map(\.type)
            #expect(types == ["Other", "Other", "Other"])
        }
    }

    @Test(
        "with If-Match, a stream at another version answers a stale version naming the current one, and nothing is decided",
        arguments: Backend.allCases)
    func staleIfMatch(backend: Backend) async throws {
        try await Self.on(backend) { store, stream in
            _ = try await store.append(to: stream, expected: .noStream, events: [testEvent(), testEvent()])
            let decided = Mutex(false)
            await #expect(throws: StaleVersion(current: 2)) {
                try await CommandHandler(store: store).handle(stream, ifMatch: 1, load: { try await Self.count(stream, in: store) }) { _, _ in
                    decided.withLock { $0 = true }
                    return .append([testEvent("Mine")]) { _ in }
                }
            }
            #expect(!decided.withLock { $0 })
        }
    }

    @Test(
        "with If-Match, a stream that moved after it was read answers a stale version rather than deciding again",
        arguments: Backend.allCases)
    func staleAfterReading(backend: Backend) async throws {
        try await Self.on(backend) { store, stream in
            _ = try await store.append(to: stream, expected: .noStream, events: [testEvent()])
            await #expect(throws: StaleVersion(current: 2)) {
                try await CommandHandler(store: store).handle(stream, ifMatch: 1, load: { try await Self.count(stream, in: store) }) { _, _ in
                    _ = try await store.append(to: stream, expected: .any, events: [testEvent("Other")])
                    return .append([testEvent("Mine")]) { _ in }
                }
            }
            #expect(try await store.read(stream: stream).map(\.type) == ["Tested", "Other"])
        }
    }

    @Test("a decision that needs no events answers without appending")
    func answersWithoutAppending() async throws {
        try await Self.on(.sqlite) { store, stream in
            let answer = try await CommandHandler(store: store).handle(stream, load: { try await Self.count(stream, in: store) }) { _, _ in
                CommandHandler.Decision<String>.answer("so already")
            }
            #expect(answer == "so already")
            #expect(try await store.version(of: stream) == 0)
        }
    }

    @Test("a claim on a stream that moved throws the caller's error and appends nothing; tryClaim answers nil", arguments: Backend.allCases)
    func claims(backend: Backend) async throws {
        try await Self.on(backend) { store, stream in
            let handler = CommandHandler(store: store)
            _ = try await handler.start(stream, with: [testEvent("First")], orThrow: Problem.conflict("taken"))
            await #expect(throws: Problem.conflict("taken")) {
                try await handler.start(stream, with: [testEvent("Second")], orThrow: Problem.conflict("taken"))
            }
            #expect(try await handler.tryClaim(stream, at: 0, with: [testEvent("Second")]) == nil)
            #expect(try await handler.tryClaim(stream, at: 1, with: [testEvent("Next")])?.streamVersion == 2)
            #expect(try await store.read(stream: stream).map(\.type) == ["First", "Next"])
        }
    }

    @Test("a write conflict is a 409 the client may retry; a stale version a 412 that names the current version")
    func problems() {
        let conflict = WriteConflict(stream: "tally-1").problem
        #expect(conflict.statusCode == 409 && conflict.type.hasSuffix("concurrent-change"))
        let stale = StaleVersion(current: 7).problem
        #expect(stale.statusCode == 412 && stale.type.hasSuffix("stale-version"))
    }
}
