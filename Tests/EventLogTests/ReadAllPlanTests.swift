import EventLog
@testable import EventLogPostgres
import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// How PostgreSQL plans the read-all statements that every projection runs on every page:
/// none may read the whole log to answer a page. (A probe for held-back events once did, for
/// the horizon is unknown when the statement is planned; a page then cost time in
/// proportion to the log's length.)
@Suite("PostgreSQL read-all plans")
struct ReadAllPlanTests {
    @Test("every read-all statement reaches its page through indexes, before and after the log's statistics, in the plans for one call and for every call")
    func noPageScansTheLog() async throws {
        var configuration = try PostgresEventStoreConfiguration(url: try Backend.postgresURL())
        configuration.schema = "plan_" + UUID().uuidString.prefix(8).lowercased()
        let store = try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
        for batch in 0..<30 {
            let events = (0..<100).map { testEvent("Planned", ["n": batch * 100 + $0]) }
            _ = try await store.append(to: "planned-\(batch % 3)-\(batch)", expected: .noStream, events: events)
        }
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try configuration.connection(), id: 1, logger: logger)

        let statements: [(name: String, sql: String, types: String, arguments: String)] = [
            ("all", ReadAllStatement.All.sql, "xid8, bigint, bigint", "'0', 0, 100"),
            ("categories", ReadAllStatement.Categories.sql, "xid8, bigint, text[], bigint", "'0', 0, '{planned}', 100"),
            ("types", ReadAllStatement.Types.sql, "xid8, bigint, text[], bigint", "'0', 0, '{Planned}', 100"),
            ("both", ReadAllStatement.CategoriesAndTypes.sql, "xid8, bigint, text[], text[], bigint", "'0', 0, '{planned}', '{Planned}', 100"),
        ]
        try await connection.query(PostgresQuery(unsafeSQL: "SET search_path = \(configuration.schema)"), logger: logger)
        // A new log has no statistics yet (nor has any log between its autovacuum's analyses
        // of it); without them PostgreSQL guesses, and the guess must not be a scan either.
        for (analyzed, mode) in [(false, "force_custom_plan"), (false, "force_generic_plan"), (true, "force_custom_plan"), (true, "force_generic_plan")] {
            if analyzed { try await connection.query("ANALYZE events", logger: logger) }
            try await connection.query(PostgresQuery(unsafeSQL: "SET plan_cache_mode = \(mode)"), logger: logger)
            for statement in statements {
                let name = "plan_\(statement.name)_\(mode)_\(analyzed)"
                try await connection.query(
                    PostgresQuery(unsafeSQL: "PREPARE \(name)(\(statement.types)) AS \(statement.sql)"), logger: logger)
                var plan: [String] = []
                for try await line in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \(name)(\(statement.arguments))"), logger: logger).decode(String.self) {
                    plan.append(line)
                }
                #expect(!plan.isEmpty)
                #expect(!plan.contains { $0.contains("Seq Scan on events") }, "\(statement.name), \(mode), analyzed \(analyzed):\n\(plan.joined(separator: "\n"))")
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
