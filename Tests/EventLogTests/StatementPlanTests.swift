import EventLog
import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// How PostgreSQL plans the log's prepared statements, which projections run on every page
/// and writers on every append: none may read the whole log. (The read-all statements' probe
/// for held-back events once did, for the horizon is unknown when the statement is planned;
/// a page then cost time in proportion to the log's length.)
@Suite("PostgreSQL statement plans")
struct StatementPlanTests {
    @Test(
        "every statement of the log reaches its rows through indexes, before and after the log's statistics, in the plans for one call and for every call"
    )
    func noPageScansTheLog() async throws {
        let configuration = try Backend.freshSchema("plan")
        let store = try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
        for batch in 0..<30 {
            let events = (0..<100).map { testEvent("Planned", ["n": batch * 100 + $0]) }
            _ = try await store.append(to: "planned-\(batch % 3)-\(batch)", expected: .noStream, events: events)
        }
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try configuration.connection(), id: 1, logger: logger)

        // Followers and the lag gauge read from near the head: ten events before it.
        var near: (transaction: String, position: Int64) = ("0", 0)
        for try await row in try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT transaction_id::text, position FROM \(configuration.schema).events ORDER BY transaction_id DESC, position DESC OFFSET 10 LIMIT 1
                    """), logger: logger
        ).decode((String, Int64).self) { near = row }
        let statements: [(name: String, sql: String, types: String, arguments: String)] = [
            ("all", ReadAllStatement.All.sql, "xid8, bigint, bigint", "'0', 0, 100"),
            ("categories", ReadAllStatement.Categories.sql, "xid8, bigint, text[], bigint", "'0', 0, '{planned}', 100"),
            ("types", ReadAllStatement.Types.sql, "xid8, bigint, text[], bigint", "'0', 0, '{Planned}', 100"),
            ("both", ReadAllStatement.CategoriesAndTypes.sql, "xid8, bigint, text[], text[], bigint", "'0', 0, '{planned}', '{Planned}', 100"),
            ("forwards", ReadForwardsStatement.sql, "text, bigint, bigint", "'planned-1-1', 1, 100"),
            ("backwards", ReadBackwardsStatement.sql, "text, bigint, bigint", "'planned-1-1', 100, 100"),
            ("by_id", EventByIDStatement.sql, "uuid", "'\(UUID().uuidString)'"),
            ("count_after", CountAfterStatement.sql, "xid8, bigint, bigint", "'\(near.transaction)', \(near.position), 100000"),
            ("head", HeadStatement.sql, "", ""),
            (
                "append_one", AppendOneStatement.sql, "text, text, uuid, text, integer, jsonb, jsonb, bigint",
                "'planned-9', 'planned', '\(UUID().uuidString)', 'Planned', 1, '{}', '{}', -1"
            ),
            (
                "append_one_notifying", AppendOneStatement.notifyingSQL, "text, text, uuid, text, integer, jsonb, jsonb, bigint, text[], text",
                "'planned-9', 'planned', '\(UUID().uuidString)', 'Planned', 1, '{}', '{}', -1, '{plan_channel}', 'plan'"
            ),
            (
                "append_first_notifying", AppendFirstStatement.notifyingSQL, "text, text, uuid, text, integer, jsonb, jsonb, text[], text",
                "'planned-new', 'planned', '\(UUID().uuidString)', 'Planned', 1, '{}', '{}', '{plan_channel}', 'plan'"
            ),
            (
                "append_batch", AppendBatchStatement.sql, "text, text, bigint, uuid[], text[], integer[], jsonb[], jsonb[]",
                "'planned-9', 'planned', -1, ARRAY['\(UUID().uuidString)'::uuid], '{Planned}', '{1}', ARRAY['{}'::jsonb], ARRAY['{}'::jsonb]"
            ),
            (
                "append_group", AppendGroupStatement.sql, "text[], text[], bigint[], uuid[], text[], integer[], jsonb[], jsonb[]",
                "'{planned-9}', '{planned}', '{-1}', ARRAY['\(UUID().uuidString)'::uuid], '{Planned}', '{1}', ARRAY['{}'::jsonb], ARRAY['{}'::jsonb]"
            ),
        ]
        try await connection.query(PostgresQuery(unsafeSQL: "SET search_path = \(configuration.schema)"), logger: logger)
        // A new log has no statistics yet (nor has any log between its autovacuum's analyses
        // of it); without them PostgreSQL guesses, and the guess must not be a scan either.
        for (analyzed, mode) in [
            (false, "force_custom_plan"), (false, "force_generic_plan"), (true, "force_custom_plan"), (true, "force_generic_plan"),
        ] {
            if analyzed { try await connection.query("ANALYZE events", logger: logger) }
            try await connection.query(PostgresQuery(unsafeSQL: "SET plan_cache_mode = \(mode)"), logger: logger)
            for statement in statements {
                let name = "plan_\(statement.name)_\(mode)_\(analyzed)"
                let (types, arguments) = statement.types.isEmpty ? ("", "") : ("(\(statement.types))", "(\(statement.arguments))")
                try await connection.query(PostgresQuery(unsafeSQL: "PREPARE \(name)\(types) AS \(statement.sql)"), logger: logger)
                var plan: [String] = []
                for try await line in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \(name)\(arguments)"), logger: logger
                ).decode(String.self) {
                    plan.append(line)
                }
                #expect(!plan.isEmpty)
                // The lag gauge's count (once a second, up to 100,000 events) is held to its plan
                // for every call only. A plan for one call follows PostgreSQL's estimate of how
                // much of the log lies past that checkpoint, which it takes from the transaction
                // ids alone (a guess of a third without statistics, and as much in one CI run
                // with them); for that much, a sorted scan is its honest choice.
                if statement.name == "count_after" && mode == "force_custom_plan" { continue }
                #expect(
                    !plan.contains { $0.contains("Seq Scan on events") },
                    "\(statement.name), \(mode), analyzed \(analyzed):\n\(plan.joined(separator: "\n"))")
            }
        }
        // The statements still answer: every event, in order, with the horizon past them all.
        // (Another test's open transaction on the shared server may hold the horizon back a while.)
        var read = try await store.readAll(after: .start, limit: 5_000, filter: .all).events
        for _ in 0..<300 where read.count < 3_000 {
            try await Task.sleep(for: .milliseconds(100))
            read = try await store.readAll(after: .start, limit: 5_000, filter: .all).events
        }
        #expect(read.count == 3_000)
        #expect(read.map(\.position) == read.map(\.position).sorted())
        try await connection.close()
        await store.shutdown()
    }
}
