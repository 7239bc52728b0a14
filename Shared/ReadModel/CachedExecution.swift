import GRDB

extension Database {
    /// Runs one statement that the connection compiles once and keeps, for what a projection
    /// runs on every event: GRDB's `execute(sql:)` compiles (and authorizes) its text anew on
    /// each call, which it must, for it also takes several statements at once.
    package func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
