import EventLog
import EventLogPostgres
import EventLogTestSupport
import Foundation
import Testing

/// Bodies and metadata travel to PostgreSQL as binary `jsonb`, written without a JSON
/// encoder (issue 17); what a reader gets back is what the writer gave.
@Suite("event log contract: what an event carries")
struct EventContentTests {
    @Test(
        "metadata (a traceparent among it) with quotes, backslashes, control characters and any Unicode reads back as written",
        arguments: Backend.allCases)
    func metadataRoundTrips(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let metadata = EventMetadata(
            correlationId: #"quote " backslash \ slash /"#, causationId: "tab\tnewline\nreturn\r nul-free \u{1} \u{1F}",
            actorId: "ünïcödé ✓ 🚲", requestId: "", service: nil,
            traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        let event = NewEvent(type: "Described", data: Data(#"{"text": "é \"quoted\" \\ \n"}"#.utf8), metadata: metadata)
        _ = try await log.store.append(to: "content-1", expected: .noStream, events: [event])
        let stored = try #require(try await log.store.read(stream: "content-1").first)
        #expect(stored.metadata == metadata)
        let body = try JSONSerialization.jsonObject(with: stored.data) as? [String: String]
        #expect(body == ["text": "é \"quoted\" \\ \n"])
        #expect(try await log.store.event(id: event.id)?.metadata == metadata)
        await log.close()
    }

    @Test("a body that is not UTF-8 is refused as an invalid event, and nothing is written", arguments: Backend.allCases)
    func invalidUTF8Refused(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let body = Data(#"{"name": ""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8)
        let event = NewEvent(type: "Garbled", data: body)
        await #expect(throws: EventStoreError.self) {
            try await log.store.append(to: "content-2", expected: .any, events: [event])
        }
        #expect(try await log.store.read(stream: "content-2").isEmpty)
        await log.close()
    }
}
