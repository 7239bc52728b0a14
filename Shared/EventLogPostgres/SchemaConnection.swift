import Logging
import PostgresNIO

/// What a table beside the log needs of the store: its connection pool, its own connections
/// for prepared statements, its schema (where the log's migrations made the table) and its logger.
struct SchemaConnection: Sendable {
    let client: PostgresClient
    let statements: StatementConnections
    let schema: String
    let logger: Logger

    init(_ store: PostgresEventStore) {
        client = store.client
        statements = store.statements
        schema = store.configuration.schema
        logger = store.logger
    }
}
