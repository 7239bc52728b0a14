import Foundation

/// An event as the log stores and returns it.
public struct RecordedEvent: Hashable, Sendable {
    /// Where the event stands in the global order; the checkpoint to resume after it.
    public var checkpoint: Checkpoint
    public var stream: String
    /// 1 for a stream's first event, then +1.
    public var version: Int64
    public var id: UUID
    public var type: String
    public var schemaVersion: Int
    /// The event's JSON body as UTF-8 bytes.
    public var data: Data
    public var metadata: EventMetadata
    /// Server time of the append.
    public var recordedAt: Date

    /// The event's unique position, shown to people.
    public var position: Int64 { checkpoint.position }

    /// The text before the first `-` of the stream name.
    public var category: String { Self.category(of: stream) }

    public init(
        checkpoint: Checkpoint, stream: String, version: Int64, id: UUID, type: String, schemaVersion: Int,
        data: Data, metadata: EventMetadata, recordedAt: Date
    ) {
        self.checkpoint = checkpoint
        self.stream = stream
        self.version = version
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.data = data
        self.metadata = metadata
        self.recordedAt = recordedAt
    }

    /// The category of a stream name: the text before its first `-`, or the whole name.
    public static func category(of stream: String) -> String {
        stream.firstIndex(of: "-").map { String(stream[..<$0]) } ?? stream
    }
}
