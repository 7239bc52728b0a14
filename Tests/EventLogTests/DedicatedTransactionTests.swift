import EventLog
import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import EventLogPostgres

/// The long transactions (migrations, imports) run on a connection of their own, and a
/// wait on that connection ends as soon as it closes: PostgresNIO 1.33 can leave a statement
/// unanswered for ever when its connection closes under it (a test run once hung there).
@Suite("PostgreSQL transactions on a connection of their own")
struct DedicatedTransactionTests {
    let configuration: PostgresConnection.Configuration
    let logger = Logger(label: "test")

    init() throws {
        configuration = try PostgresEventStoreConfiguration(url: try Backend.postgresURL()).connection()
    }

    @Test("a wait on a connection that closes ends at once with 'connection lost', however long it would have been")
    func closeEndsTheWait() async throws {
        await #expect(throws: PostgresConnectionLost.self) {
            try await withDedicatedTransaction(configuration, logger: logger) { connection in
                try await connection.close()
                // An answer that never comes, as PostgresNIO's lost one.
                try await Task.sleep(for: .seconds(3_600))
            }
        }
    }

    @Test("the transaction commits what its body did, and an error in the body rolls everything back")
    func commitsOrRollsBack() async throws {
        let table = "dedicated_" + UUID().uuidString.prefix(8).lowercased()
        try await withDedicatedTransaction(configuration, logger: logger) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (n int)"), logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1)"), logger: logger)
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withDedicatedTransaction(configuration, logger: logger) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (2)"), logger: logger)
                throw Refused()
            }
        }
        let rows = try await withDedicatedTransaction(configuration, logger: logger) { connection in
            var values: [Int] = []
            for try await n in try await connection.query(PostgresQuery(unsafeSQL: "SELECT n FROM \(table) ORDER BY n"), logger: logger)
                .decode(Int.self)
            { values.append(n) }
            try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"), logger: logger)
            return values
        }
        #expect(rows == [1])
    }

    @Test("an operation that lost its connection is run again, a bounded number of times")
    func lostConnectionsAreRetried() async throws {
        let attempts = Atomic<Int>(0)
        let result = try await retryingLostConnections(logger: logger) {
            if attempts.add(1, ordering: .relaxed).newValue < 3 { throw PostgresConnectionLost() }
            return "done"
        }
        #expect(result == "done")
        #expect(attempts.load(ordering: .relaxed) == 3)

        let hopeless = Atomic<Int>(0)
        await #expect(throws: PostgresConnectionLost.self) {
            try await retryingLostConnections(attempts: 3, logger: logger) {
                hopeless.add(1, ordering: .relaxed)
                throw PostgresConnectionLost()
            }
        }
        #expect(hopeless.load(ordering: .relaxed) == 3)
    }
}
