import Logging
import PostgresNIO

/// What a table beside the log needs of the store: its connection pool, its schema (where
/// the log's migrations made the table) and its logger.
struct SchemaConnection: Sendable {
    let client: PostgresClient
    let schema: String
    let logger: Logger

    init(_ store: PostgresEventStore) {
        client = store.client
        schema = store.configuration.schema
        logger = store.logger
    }
}
