import EventLog
import Foundation
import Testing

/// The log reads each event's metadata from one JSON document (issue 17); whatever path a
/// document takes, the result is what `JSONDecoder` makes of it.
@Suite("event metadata read from its JSON document")
struct MetadataReadingTests {
    private func read(_ json: String) throws -> EventMetadata {
        var bytes = Array(json.utf8)
        return try bytes.withUnsafeMutableBytes { try EventMetadata(jsonObject: UnsafeRawBufferPointer($0)) }
    }

    private func decoded(_ json: String) throws -> EventMetadata {
        try JSONDecoder().decode(EventMetadata.self, from: Data(json.utf8))
    }

    @Test(
        "PostgreSQL's jsonb text, SQLite's compact text, reordered, spaced, null and unknown keys: each field as JSONDecoder reads it",
        arguments: [
            #"{"actorId": "account-42", "service": "bench", "correlationId": "0b6f3c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f"}"#,
            #"{"actorId":"account-42","causationId":"c","correlationId":"k","requestId":"r","service":"listings","traceparent":"00-4bf9-01"}"#,
            "\n{ \"traceparent\" :\t\"t\" ,\r\"requestId\": null, \"colour\": \"blue\", \"service\": \"\" }  ",
            #"{"actorId": "ünïcödé ✓ 🚲", "causationId": "a/b"}"#,
            "{}",
            // The slow path: an escape, a value that is not a string.
            #"{"actorId": "quote \" backslash \\ tab \t é", "service": "s"}"#,
            #"{"correlationId": "k", "extra": {"nested": [1, 2.5, true]}, "service": "s"}"#,
            #"{"correlationId": "k", "attempt": 3}"#,
        ])
    func sameAsDecoder(json: String) throws {
        #expect(try read(json) == (try decoded(json)))
    }

    @Test("every field comes from its own key")
    func fieldsByKey() throws {
        let metadata = try read(#"{"actorId":"a","causationId":"b","correlationId":"c","requestId":"d","service":"e","traceparent":"f"}"#)
        #expect(metadata == EventMetadata(correlationId: "c", causationId: "b", actorId: "a", requestId: "d", service: "e", traceparent: "f"))
    }

    @Test(
        "what is not a JSON object of the fields is refused, as JSONDecoder refuses it",
        arguments: [
            "", "[]", #""actorId""#, #"{"actorId": "a""#, #"{"actorId" "a"}"#, #"{"actorId": 42}"#,
            #"{"actorId": "a"} trailing"#, #"{"actorId": "unterminated}"#,
        ])
    func refused(json: String) {
        #expect(throws: (any Error).self) { try read(json) }
        #expect(throws: (any Error).self) { try decoded(json) }
    }
}
