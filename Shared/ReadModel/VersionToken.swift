import GRDB

/// A read model's version token over some of its tables: a one-row table holding a random
/// number that SQLite triggers replace, in the same transaction, with every row inserted,
/// updated or deleted in any of ``watched``. Two snapshots with the same token hold the same
/// rows in those tables, so an answer read from them may be kept under it (ServiceKit's
/// `VersionedAnswerCache`). The number is random rather than counted so that a read-model
/// file made again from the log never repeats the tokens of the file it replaces.
public struct VersionToken: Sendable {
    /// The one-row table that holds the token.
    public let table: String
    /// The tables whose every write replaces it.
    public let watched: [String]

    public init(table: String, watched: [String]) {
        self.table = table
        self.watched = watched
    }

    /// Creates the table, with a first token, and the triggers: for a migration.
    public func create(in db: Database) throws {
        try db.execute(sql: "CREATE TABLE \(table) (token INTEGER NOT NULL); INSERT INTO \(table) VALUES (random());")
        for watched in watched {
            for operation in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(watched)_\(operation.lowercased())_\(table) AFTER \(operation) ON \(watched)
                        BEGIN UPDATE \(table) SET token = random(); END
                        """)
            }
        }
    }

    /// The token in this transaction's snapshot; nil if the table holds none.
    public func current(in db: Database) throws -> Int64? {
        try Int64.fetchOne(try db.cachedStatement(sql: "SELECT token FROM \(table)"))
    }

    /// What `lookup` finds kept under the token `readModel` holds now (nil when the table
    /// holds none), read on the calling thread (``ReadModelDatabase/readInPlace(_:)``): a
    /// kept answer is one row's read, too short to be worth the two thread switches of GRDB's
    /// `async` read around it, which a read that misses still takes (issue 17).
    public func kept<Answer>(in readModel: ReadModelDatabase, _ lookup: (Int64) -> Answer?) throws -> Answer? {
        try readModel.readInPlace { db in try current(in: db).flatMap(lookup) }
    }
}
