import Foundation

/// An event as a writer hands it to ``EventStore/append(to:expected:events:)``.
public struct NewEvent: Hashable, Sendable {
    /// Chosen by the writer; appending the same ids to the same stream again is idempotent.
    public var id: UUID
    /// The stored type name, e.g. `ListingPosted`.
    public var type: String
    /// The schema version of `data`, starting at 1.
    public var schemaVersion: Int
    /// The event's body: a JSON object, as UTF-8 bytes.
    public var data: Data
    public var metadata: EventMetadata

    public init(id: UUID = .random(), type: String, schemaVersion: Int = 1, data: Data, metadata: EventMetadata = .init()) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.data = data
        self.metadata = metadata
    }
}
