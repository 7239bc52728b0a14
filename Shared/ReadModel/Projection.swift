import EventLog
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
}
