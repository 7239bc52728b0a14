import EventLog
import Foundation
import Testing

@testable import EventLogPostgres

/// A batch's columns as the append statements bind them (pure, no server).
@Suite("encoded batches")
struct EncodedBatchTests {
    @Test("each event's metadata is its own JSON, whether it repeats the one before or not")
    func metadataPerEvent() throws {
        let first = EventMetadata(correlationId: "c-1", actorId: "account-1", service: "tests")
        let second = EventMetadata(correlationId: "c-2", actorId: "account-\"2\"", service: "tests")
        let metadata = [first, first, second, second, first]
        let events = metadata.map { NewEvent(type: "Encoded", data: Data(#"{"n":1}"#.utf8), metadata: $0) }
        let batch = try EncodedBatch(events)
        #expect(batch.metadata.map(\.text) == metadata.map(\.jsonText))
        #expect(batch.metadata.map { document in document.text.withUnsafeBytes { try? EventMetadata(jsonObject: $0) } } == metadata)
        #expect(batch.ids == events.map(\.id) && batch.types == Array(repeating: "Encoded", count: 5))
    }
}
