import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import Testing

/// `commons events verify`, run as a process on both backends.
@Suite("commons events: verify")
struct EventsVerifyTests {
    /// Appends `count` well-formed, registered events to `stream`.
    private func appendParked(_ log: TestLog, stream: String, count: Int) async throws {
        let events = try (0..<count).map { n in
            try EventCatalog.encode(EventParked(projection: "orders", eventId: UUID(), reason: "reason \(n)"))
        }
        try await appendVisibly(log, to: stream, events)
    }

    @Test("verify exits 0 with one OK line on a clean log of registered events", arguments: Backend.allCases)
    func clean(backend: Backend) async throws {
        let log = try await backend.makeLog()
        try await appendParked(log, stream: "parking-orders", count: 3)
        try await appendParked(log, stream: "parking-invoices", count: 2)

        let result = try await commons("events", "verify", log: log)

        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["OK: 5 events in 2 streams; versions contiguous, ids unique, every event decodes"])
        await log.close()
    }

    @Test("verify exits 1 with a report on an unknown type and an event that does not decode", arguments: Backend.allCases)
    func problems(backend: Backend) async throws {
        let log = try await backend.makeLog()
        try await appendParked(log, stream: "parking-orders", count: 2)
        let unknown = testEvent("Mystery", ["n": 1])
        try await appendVisibly(log, to: "mystery-1", [unknown, testEvent("Mystery")])
        let broken = NewEvent(type: EventParked.eventType, data: Data(#"{"projection": "orders"}"#.utf8))
        try await appendVisibly(log, to: "parking-orders", [broken])

        let result = try await commons("events", "verify", log: log)

        #expect(result.status == 1, "\(result)")
        #expect(result.lines.first == "checked 5 events in 2 streams")
        #expect(result.lines.last == "2 problems found")
        let problems = result.lines.filter { $0.hasPrefix("problem: ") }
        #expect(problems.count == 2, "\(result)")
        #expect(
            problems.contains {
                $0.hasPrefix("problem: event \(broken.id.uuidString.lowercased()) at parking-orders@3: EventParked v1 does not decode")
            })
        #expect(problems.contains("problem: unknown event type Mystery: 2 events, first \(unknown.id.uuidString.lowercased()) at mystery-1@1"))
        await log.close()
    }
}
