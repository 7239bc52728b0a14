import Foundation

/// The append-only event log that every service writes to and reads from.
///
/// Two implementations pass one contract suite: PostgreSQL (`EventLogPostgres`) for
/// deployments and an embedded SQLite file (`EventLogSQLite`) for local runs.
public protocol EventStore: Sendable {
    /// Appends `events` to `stream` as one atomic batch, if the stream is at `expected`.
    ///
    /// - Throws: ``EventStoreError/wrongExpectedVersion(stream:expected:actual:)`` when the
    ///   stream is elsewhere, ``EventStoreError/idempotencyConflict(stream:eventId:reason:)``
    ///   when some ids are stored already but not as this batch. Nothing is written then.
    /// - Returns: the original result, with `wasAlreadyAppended`, when the whole batch was
    ///   appended before with the same ids, types and bodies (a safe client retry).
    func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult

    /// Reads one stream. Forwards starts at `version` (default 1); backwards starts at
    /// `version` (default the last) and goes down.
    func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent]

    /// Reads the whole log in its global order, after `checkpoint`, keeping what `filter` matches.
    func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage

    /// ``readAll(after:limit:filter:)``, with the stored values of the personal-data keys that
    /// the sealed values of its events of `keyTypes` name (``EventPage/storedKeys``), read in
    /// the same statement where the store keeps the keys beside the log; a store that does not
    /// leaves them nil, and its readers look the keys up themselves.
    func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter, keysNamedBy keyTypes: Set<String>) async throws -> EventPage

    /// Reads the whole log newest first: the events a reader can see now, before `checkpoint`
    /// (nil: from the head) in the global order, the latest first, keeping what `filter`
    /// matches; at most `limit`. The last event's checkpoint continues to older ones.
    func readAllBackwards(before checkpoint: Checkpoint?, limit: Int, filter: EventFilter) async throws -> [RecordedEvent]

    /// The event with this id, if stored.
    func event(id: UUID) async throws -> RecordedEvent?

    /// The checkpoint of the last event a reader can see now (``Checkpoint/start`` if none).
    func head() async throws -> Checkpoint

    /// Whether the log has reached `checkpoint`: an append has been given it or a later one,
    /// though a reader may not see it yet (see ``head()``). False for a made-up checkpoint
    /// beyond the log's end, which no wait would ever reach.
    func hasReached(_ checkpoint: Checkpoint) async throws -> Bool

    /// How many events the log holds after `checkpoint`, of every stream, counting at most
    /// `limit`: how far a reader at `checkpoint` is behind. (Positions cannot tell: a
    /// checkpoint in PostgreSQL may name a transaction and no position.)
    func eventCount(after checkpoint: Checkpoint, limit: Int) async throws -> Int

    /// Appends events exported from another log, keeping their order, streams, versions,
    /// ids, bodies and times; positions and transaction ids are assigned anew. Events
    /// already stored with the same id, stream and version are skipped, so an import can
    /// be repeated; any other clash fails with ``EventStoreError/importConflict(eventId:reason:)``.
    func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult

    /// Fires whenever this store learns that the log may have grown.
    var changes: ChangeSignal { get }

    /// How often a subscription looks for new events when nothing has woken it.
    var pollInterval: Duration { get }

    /// Closes connections and stops background work.
    func shutdown() async
}

extension EventStore {
    /// Catches up from `checkpoint`, then follows the log live, page by page. `wakeName`, a
    /// name that is no category (it holds a `:`), lets ``changes`` wake this subscription
    /// alone: `changes.fire(categories: [wakeName])` (a reader waiting for a position).
    public func subscribe(
        after checkpoint: Checkpoint = .start, filter: EventFilter = .all, pageSize: Int = 1_000,
        wakeName: String? = nil, keysNamedBy keyTypes: Set<String> = []
    ) -> EventSubscription {
        EventSubscription(store: self, start: checkpoint, filter: filter, pageSize: pageSize, wakeName: wakeName, keyTypes: keyTypes)
    }

    /// Without the keys: the store's reader keeps none beside the log.
    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter, keysNamedBy keyTypes: Set<String>) async throws -> EventPage {
        try await readAll(after: checkpoint, limit: limit, filter: filter)
    }

    /// Reads a whole stream forwards.
    public func read(stream: String) async throws -> [RecordedEvent] {
        try await read(stream: stream, from: nil, direction: .forwards, limit: .max)
    }

    /// The last version of `stream`, 0 when it has no events.
    public func version(of stream: String) async throws -> Int64 {
        try await read(stream: stream, from: nil, direction: .backwards, limit: 1).first?.version ?? 0
    }
}
