import EventLogPostgres

/// The log's statements as the libpq store prepares them: the PostgresNIO store's text
/// (``LogStatementText``), under the same names, with their parameters' types.
enum LibPQStatements {
    private static let oneEvent: [PostgresType] = [.text, .text, .uuid, .text, .int4, .jsonb, .jsonb]
    private static let notification: [PostgresType] = [.textArray, .text]
    private static let columns: [PostgresType] = [.uuidArray, .textArray, .int4Array, .jsonbArray, .jsonbArray]

    static let appendFirst = PreparedSQL("commons_append_first", LogStatementText.appendFirst, oneEvent)
    static let appendFirstNotifying = PreparedSQL(
        "commons_append_first_notifying", LogStatementText.appendFirstNotifying, oneEvent + notification)
    static let appendOne = PreparedSQL("commons_append_one", LogStatementText.appendOne, oneEvent + [.int8])
    static let appendOneNotifying = PreparedSQL(
        "commons_append_one_notifying", LogStatementText.appendOneNotifying, oneEvent + [.int8] + notification)
    static let appendBatch = PreparedSQL("commons_append_batch_rows", LogStatementText.appendBatch, [.text, .text, .int8] + columns)
    static let appendGroup = PreparedSQL(
        "commons_append_group", LogStatementText.appendGroup, [.textArray, .textArray, .int8Array] + columns)
    static let replayed = PreparedSQL(
        "commons_replayed_append",
        "SELECT stream_version, last_position, last_transaction FROM replayed_append($1, $2, $3, $4, $5)",
        [.text, .uuidArray, .textArray, .int4Array, .jsonbArray])

    static let readForwards = PreparedSQL("commons_read_forwards", LogStatementText.readForwards, [.text, .int8, .int8])
    static let readBackwards = PreparedSQL("commons_read_backwards", LogStatementText.readBackwards, [.text, .int8, .int8])
    static let eventByID = PreparedSQL("commons_event_by_id", LogStatementText.eventByID, [.uuid])
    static let readAll = PreparedSQL("commons_read_all", LogStatementText.readAll, [.xid8, .int8, .int8])
    static let readAllCategories = PreparedSQL(
        "commons_read_all_categories", LogStatementText.readAllCategories, [.xid8, .int8, .textArray, .int8])
    static let readAllTypes = PreparedSQL("commons_read_all_types", LogStatementText.readAllTypes, [.xid8, .int8, .textArray, .int8])
    static let readAllCategoriesAndTypes = PreparedSQL(
        "commons_read_all_categories_types", LogStatementText.readAllCategoriesAndTypes, [.xid8, .int8, .textArray, .textArray, .int8])
    static let readAllBackwards = PreparedSQL(
        "commons_read_all_backwards", LogStatementText.readAllBackwards, [.xid8, .int8, .textArray, .textArray, .int8])
    static let head = PreparedSQL("commons_head", LogStatementText.head, [])
    static let reached = PreparedSQL("commons_reached", LogStatementText.reached, [.xid8, .int8])
    static let countAfter = PreparedSQL("commons_count_after", LogStatementText.countAfter, [.xid8, .int8, .int8])
}
