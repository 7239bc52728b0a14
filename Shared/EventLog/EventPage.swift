import Foundation

/// One page of a global read.
public struct EventPage: Sendable {
    /// The matching events, in global order.
    public var events: [RecordedEvent]
    /// How far the read has looked, matching or not: resume after this. It never passes
    /// an event that could still become visible, and it moves even when a filter matched
    /// nothing, so a reader does not scan a long stretch of other events again.
    public var checkpoint: Checkpoint
    /// True when the read saw everything stored when it ran: the page is not full and no
    /// stored event was held back behind an older, unfinished transaction. Whatever comes
    /// next is appended after the read began, and fires the store's ``ChangeSignal``, so a
    /// follower waits for that instead of reading again (false is always safe).
    public var reachedHead: Bool
    /// The stored values of the personal-data keys its events' sealed values name, by owner
    /// (nil for a destroyed key), when the read asked for them and the store keeps the keys
    /// beside the log (``EventStore/readAll(after:limit:filter:keysNamedBy:)``); nil otherwise.
    public var storedKeys: [UUID: Data?]?

    public init(events: [RecordedEvent], checkpoint: Checkpoint, reachedHead: Bool = false, storedKeys: [UUID: Data?]? = nil) {
        self.events = events
        self.checkpoint = checkpoint
        self.reachedHead = reachedHead
        self.storedKeys = storedKeys
    }
}

/// Which way to read a stream.
public enum ReadDirection: Sendable, Hashable {
    case forwards
    case backwards
}

/// What an append did.
public struct AppendResult: Hashable, Sendable {
    /// The stream's version after the append: pass it as `.exact` to append again.
    public var streamVersion: Int64
    /// The checkpoint of the batch's last event (the `Commons-Position` of a write).
    public var checkpoint: Checkpoint
    /// True when every event was already stored by an earlier, identical append.
    public var wasAlreadyAppended: Bool

    public init(streamVersion: Int64, checkpoint: Checkpoint, wasAlreadyAppended: Bool) {
        self.streamVersion = streamVersion
        self.checkpoint = checkpoint
        self.wasAlreadyAppended = wasAlreadyAppended
    }
}

/// What an import did.
public struct ImportResult: Hashable, Sendable {
    public var imported: Int
    /// Events whose ids the log already held at the same stream and version.
    public var alreadyPresent: Int

    public init(imported: Int = 0, alreadyPresent: Int = 0) {
        self.imported = imported
        self.alreadyPresent = alreadyPresent
    }
}
