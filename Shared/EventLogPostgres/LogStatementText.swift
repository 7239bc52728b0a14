import EventLog

/// The SQL text of the log's statements and migrations, for the store on libpq
/// (`EventLogLibPQ`): one text, whichever driver sends it. Names are unqualified: both
/// stores' sessions have `search_path` set to the log's schema.
package enum LogStatementText {
    package static let appendFirst = AppendFirstStatement.sql
    package static let appendFirstNotifying = AppendFirstStatement.notifyingSQL
    package static let appendOne = AppendOneStatement.sql
    package static let appendOneNotifying = AppendOneStatement.notifyingSQL
    package static let appendBatch = AppendBatchStatement.sql
    package static let appendGroup = AppendGroupStatement.sql
    package static let readForwards = ReadForwardsStatement.sql
    package static let readBackwards = ReadBackwardsStatement.sql
    package static let eventByID = EventByIDStatement.sql
    package static let readAll = ReadAllStatement.All.sql
    package static let readAllCategories = ReadAllStatement.Categories.sql
    package static let readAllTypes = ReadAllStatement.Types.sql
    package static let readAllCategoriesAndTypes = ReadAllStatement.CategoriesAndTypes.sql
    package static let readAllBackwards = ReadAllBackwardsStatement.sql
    package static let head = HeadStatement.sql
    package static let reached = ReachedStatement.sql
    package static let countAfter = CountAfterStatement.sql
    package static let notify = NotifyStatement.sql

    /// The migrations, each a list of single statements with `{schema}` for the schema.
    package static let migrations = PostgresMigrations.all

    /// The advisory-lock key that migrations of `schema` take, in every store.
    package static func migrationLock(schema: String) -> String { "commons-migrations:\(schema)" }

    /// The event in the three cells of ``EventRow/columns`` (the packed fields, the body and
    /// the metadata, in the binary format); nil when the packed cell is null (no event).
    package static func event(
        packed: UnsafeRawBufferPointer?, data: UnsafeRawBufferPointer, metadata: UnsafeRawBufferPointer
    ) throws
        -> RecordedEvent?
    {
        guard let packed else { return nil }
        let fixed = try EventRow.PackedFields(bytes: packed)
        return RecordedEvent(
            checkpoint: Checkpoint(transaction: fixed.transaction, position: fixed.position), stream: fixed.stream, version: fixed.version,
            id: fixed.id, type: fixed.type, schemaVersion: Int(fixed.schemaVersion), data: try JSONBText.data(bytes: data),
            metadata: try JSONBText.metadata(bytes: metadata), recordedAt: fixed.recordedAt)
    }
}
