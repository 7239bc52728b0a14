import EventLog
import Foundation
import GRDB

/// A named unit that turns events into rows of a read model.
///
/// A projection is applied by a ``ProjectionRunner``, which calls ``apply(_:in:)`` for each
/// event of a batch inside one SQLite transaction and advances the projection's checkpoint
/// in that same transaction.
public protocol Projection: Sendable {
    /// Stable name; it keys the checkpoint and the parking stream (`parking-<name>`).
    var name: String { get }
    /// The events this projection reads.
    var filter: EventFilter { get }
    /// Registers the projection's tables. Migrations never change once shipped.
    func registerMigrations(in migrator: inout DatabaseMigrator)
    /// Applies one event. Throwing rolls back the whole batch and halts the projection on
    /// this event until it succeeds or an operator parks it.
    func apply(_ event: RecordedEvent, in db: Database) throws

    /// The part of applying an event that needs no database (decoding its body, say). A
    /// rebuild prepares the next page on another thread while the writer applies this one;
    /// ``apply(_:prepared:in:)`` then gets the result. Nil (the default) prepares nothing.
    func prepare(_ event: RecordedEvent) throws -> (any Sendable)?
    /// Applies one event with what ``prepare(_:)`` made of it (nil when it made nothing, or
    /// was not asked). By default, ``apply(_:in:)``.
    func apply(_ event: RecordedEvent, prepared: (any Sendable)?, in db: Database) throws

    /// ``prepare(_:)`` for a projection that must wait on something first: opening what is
    /// sealed with its owner's key in `keys` (nil where the runner was given no vault).
    /// Called for every event, live and in a rebuild, before its page is applied. By default,
    /// ``prepare(_:)``.
    func prepare(_ event: RecordedEvent, keys: (any KeyVault)?) async throws -> (any Sendable)?
    /// The owners whose keys ``prepare(_:keys:)`` will open `event`'s values with, if any
    /// (``SealedKeyOwners`` reads them without decoding): a page's are looked up together
    /// before its events are prepared. None, by default.
    func sealedKeyOwners(of event: RecordedEvent) -> [UUID]
    /// The event types whose sealed values ``prepare(_:keys:)`` opens: a live runner asks the
    /// log for their keys with each page, where the log keeps them beside it. None, by default.
    var keyTypes: Set<String> { get }

    /// Called before a rebuild from the start of the log applies its first event, in a file
    /// nobody reads yet: a projection may then defer its indexes (load rows first, index after).
    func beginBulkLoad(in db: Database) throws
    /// Called once a rebuild from the start has applied its last event, before the file is
    /// swapped in: builds whatever ``beginBulkLoad(in:)`` deferred.
    func endBulkLoad(in db: Database) throws

    /// Called after a page that erased a person (``ProjectionRunner/erasingEventType``) was
    /// applied: a projection whose indexes keep copies of deleted rows (FTS5 keeps the terms of
    /// a deleted row in its segments until they merge) rewrites them here, so that the file
    /// holds nothing of that person.
    func forgetErased(in db: Database) throws
}

extension Projection {
    /// Nothing to prepare, by default.
    public func prepare(_ event: RecordedEvent) throws -> (any Sendable)? { nil }
    /// Prepares without waiting, by default.
    public func prepare(_ event: RecordedEvent, keys: (any KeyVault)?) async throws -> (any Sendable)? { try prepare(event) }
    /// Opens nothing, by default.
    public func sealedKeyOwners(of event: RecordedEvent) -> [UUID] { [] }
    /// Opens nothing, by default.
    public var keyTypes: Set<String> { [] }
    /// Applies the event as it is, by default.
    public func apply(_ event: RecordedEvent, prepared: (any Sendable)?, in db: Database) throws { try apply(event, in: db) }
    /// Nothing to defer, by default.
    public func beginBulkLoad(in db: Database) throws {}
    /// Nothing deferred, by default.
    public func endBulkLoad(in db: Database) throws {}
    /// Nothing kept, by default.
    public func forgetErased(in db: Database) throws {}
}
