import EventLog
import EventLogTestSupport
import Foundation
import Testing

/// `commons events tail`, `stream` and `show`, run as a process on both backends.
@Suite("commons events: reading")
struct EventsReadingTests {
    /// The text line `tail` and `stream` print for `event`.
    private func line(_ event: RecordedEvent) -> String {
        "\(event.position) \(ExportedEvent.timestamp(event.recordedAt)) \(event.stream)@\(event.version) \(event.type) \(String(decoding: event.data, as: UTF8.self))"
    }

    @Test("tail prints every event in global order, one line each", arguments: Backend.allCases)
    func tailText(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2", "order-1", "invoice-1"])

        let result = try await commons("events", "tail", log: log)

        #expect(result.status == 0, "\(result)")
        #expect(result.lines == events.map(line))
        #expect(result.lines.first?.wholeMatch(of: /\d+ \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z order-1@1 Tested \{"n": ?0\}/) != nil)
        await log.close()
    }

    @Test("tail's options choose the start, the streams, the types and the count", arguments: Backend.allCases)
    func tailOptions(backend: Backend) async throws {
        let log = try await backend.makeLog()
        _ = try await appendTestEvents(log, streams: ["order-1", "order-2", "order-1", "invoice-1"])
        try await appendVisibly(log, to: "order-2", [testEvent("Shipped", ["n": 9])])
        let events = try await allEvents(log.store)

        let after = try await commons("events", "tail", "--from", events[1].checkpoint.description, log: log)
        #expect(after.lines == events[2...].map(line), "\(after)")
        let limited = try await commons("events", "tail", "--limit", "2", log: log)
        #expect(limited.lines == events[..<2].map(line), "\(limited)")
        let stream = try await commons("events", "tail", "--stream", "order-1", log: log)
        #expect(stream.lines == [events[0], events[2]].map(line), "\(stream)")
        let category = try await commons("events", "tail", "--category", "invoice", "--category", "nothing", log: log)
        #expect(category.lines == [line(events[3])], "\(category)")
        let type = try await commons("events", "tail", "--type", "Shipped", log: log)
        #expect(type.lines == [line(events[4])], "\(type)")
        await log.close()
    }

    @Test("tail --json prints NDJSON in the export format", arguments: Backend.allCases)
    func tailJSON(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2", "order-1"])

        let result = try await commons("events", "tail", "--json", log: log)

        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == events.count)
        #expect(result.lines.first?.contains(#""data":{"n":0}"#) == true, "the body sits inline as an object: \(result)")
        let exported = try result.lines.map { try JSONDecoder().decode(ExportedEvent.self, from: Data($0.utf8)) }
        for (line, event) in zip(exported, events) { expectSame(line, event) }
        await log.close()
    }

    @Test("tail --follow prints new events as they come until SIGINT, then exits 0", arguments: Backend.allCases)
    func tailFollow(backend: Backend) async throws {
        let log = try await backend.makeLog()
        _ = try await appendTestEvents(log, streams: ["order-1", "order-2"])
        let tail = try CommonsProcess(["events", "tail", "--follow"], log: log)

        #expect(try await tail.waitForOutput { $0.split(separator: "\n").count == 2 }, "\(tail.stderr)")
        _ = try await log.store.append(to: "order-3", expected: .any, events: [testEvent("Tested", ["n": 7])])
        #expect(try await tail.waitForOutput { $0.contains("order-3@1 Tested") }, "\(tail.stderr)")
        tail.process.interrupt()
        let result = try await tail.finish()

        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 3)
        await log.close()
    }

    @Test("stream prints one whole stream with versions; exits 1 when it has none", arguments: Backend.allCases)
    func stream(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2", "order-1", "order-1"])

        let result = try await commons("events", "stream", "order-1", log: log)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == events.filter { $0.stream == "order-1" }.map(line))
        #expect(result.lines.map { $0.split(separator: " ")[2] } == ["order-1@1", "order-1@2", "order-1@3"])

        let missing = try await commons("events", "stream", "order-9", log: log)
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "Error: stream order-9 has no events\n")
        await log.close()
    }

    @Test("show prints one event in full as pretty JSON", arguments: Backend.allCases)
    func show(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2"])

        let result = try await commons("events", "show", events[1].id.uuidString, log: log)

        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count > 10, "pretty-printed: \(result)")
        expectSame(try JSONDecoder().decode(ExportedEvent.self, from: Data(result.stdout.utf8)), events[1])
        await log.close()
    }

    @Test("a missing event id, a bad id and a bad checkpoint each fail with one clear line", arguments: Backend.allCases)
    func errors(backend: Backend) async throws {
        let log = try await backend.makeLog()
        _ = try await appendTestEvents(log, streams: ["order-1"])
        let id = UUID()

        let missing = try await commons("events", "show", id.uuidString, log: log)
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: no event with id \(id.uuidString.lowercased())\n")

        let badId = try await commons("events", "show", "not-an-id", log: log)
        #expect(badId.status != 0)
        #expect(badId.stderr == "Error: 'not-an-id' is not an event id (a UUID)\n")

        let badCheckpoint = try await commons("events", "tail", "--from", "12:x", log: log)
        #expect(badCheckpoint.status != 0)
        #expect(badCheckpoint.stdout.isEmpty)
        #expect(badCheckpoint.stderr.hasPrefix("Error: --from: '12:x' is not a checkpoint"))
        #expect(badCheckpoint.stderr.filter { $0 == "\n" }.count == 1, "\(badCheckpoint)")
        await log.close()
    }

    @Test("an event store location that cannot work fails with one clear line")
    func badLocation() async throws {
        let result = try await commons("events", "tail", "--event-store", "postgres://nobody@127.0.0.1:1/none?schema=Bad-Name", log: nil)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: --event-store: schema 'Bad-Name' must be a lowercase identifier"), "\(result)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }
}

/// Checks that an export line describes `event`: the same place, stream, id, body and time.
func expectSame(_ line: ExportedEvent, _ event: RecordedEvent, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(line.position == event.position, sourceLocation: sourceLocation)
    #expect(line.checkpoint == event.checkpoint.description, sourceLocation: sourceLocation)
    #expect(line.stream == event.stream && line.version == event.version, sourceLocation: sourceLocation)
    #expect(line.id == event.id && line.type == event.type && line.schemaVersion == event.schemaVersion, sourceLocation: sourceLocation)
    #expect(EventJSON.sameValue(line.data, event.data), sourceLocation: sourceLocation)
    #expect(line.metadata == event.metadata, sourceLocation: sourceLocation)
    #expect(abs(line.recordedAt.timeIntervalSince(event.recordedAt)) < 0.000_002, sourceLocation: sourceLocation)
}
