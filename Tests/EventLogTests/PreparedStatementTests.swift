import EventLog
import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// The PostgreSQL log prepares its statements once per pooled connection (issue 17); what
/// happens to them when that connection goes, or when their preparation fails.
@Suite("PostgreSQL prepared statements")
struct PreparedStatementTests {
    @Test("statements prepared on a connection the server ends are prepared again on the connection that replaces it")
    func preparedAgainAfterReconnect() async throws {
        let store = try await Self.storeOfOneConnection()
        let (first, second) = (testEvent("First"), testEvent("Second"))
        _ = try await store.append(to: "prepared-1", expected: .noStream, events: [first])
        #expect(try await store.read(stream: "prepared-1").map(\.id) == [first.id])
        let lost = try await Self.backendProcess(of: store)

        try await Self.terminate(lost, store: store)
        // The pool may lend the dead connection once more before it notices; a retry of the
        // same append is safe (it is idempotent), as a client's would be.
        let result = try await Self.eventually { try await store.append(to: "prepared-1", expected: .exact(1), events: [second]) }
        #expect(result.streamVersion == 2)
        #expect(try await Self.backendProcess(of: store) != lost)
        #expect(try await store.read(stream: "prepared-1").map(\.id) == [first.id, second.id])
        // Reading the whole log waits for the cluster's visibility horizon, which another test's
        // open transaction on the shared server may hold back for a while.
        var all = try await store.readAll(after: .start, limit: 10, filter: .all).events.map(\.id)
        for _ in 0..<300 where all.count < 2 {
            try await Task.sleep(for: .milliseconds(100))
            all = try await store.readAll(after: .start, limit: 10, filter: .all).events.map(\.id)
        }
        #expect(all == [first.id, second.id])
        #expect(try await store.event(id: second.id)?.version == 2)
        await store.shutdown()
    }

    @Test(
        "a statement whose preparation failed is prepared again once the cause is gone, not refused for the connection's life",
        arguments: [0, 1])
    func failedPreparationIsForgotten(ownConnections: Int) async throws {
        let store = try await Self.storeOfOneConnection(ownConnections: ownConnections)
        let schema = store.configuration.schema
        // Nothing is prepared on the connection the statements run on yet; hide the table from it.
        try await store.client.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(schema).events RENAME TO events_hidden"))
        await #expect(throws: (any Error).self) { try await store.event(id: UUID()) }
        // The failed statement closed its connection; the pool may lend it once more before it
        // notices (PSQLError clientClosedConnection, about one run in twelve), so this is retried.
        _ = try await Self.eventually {
            try await store.client.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(schema).events_hidden RENAME TO events"))
        }
        let found = try await Self.eventually { try await store.event(id: UUID()) }
        #expect(found == nil)
        await store.shutdown()
    }

    /// A store on a fresh schema whose pool holds at most one connection, and with
    /// `ownConnections` of its own (none: every statement on that one).
    private static func storeOfOneConnection(ownConnections: Int = 0) async throws -> PostgresEventStore {
        var configuration = try Backend.freshSchema("prep")
        configuration.maximumConnections = 1
        configuration.statementConnections = ownConnections
        return try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
    }

    /// The server process behind the pool's connection.
    private static func backendProcess(of store: PostgresEventStore) async throws -> Int32 {
        for try await pid in try await store.client.query("SELECT pg_backend_pid()").decode(Int32.self) { return pid }
        throw TestSetupError("no backend pid")
    }

    /// Ends a server process from a connection of the test's own, as a restart or fail-over would.
    private static func terminate(_ pid: Int32, store: PostgresEventStore) async throws {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try store.configuration.connection(), id: 3,
            logger: Logger(label: "test"))
        for try await ended in try await connection.query("SELECT pg_terminate_backend(\(pid))", logger: Logger(label: "test")).decode(Bool.self) {
            #expect(ended)
        }
        try await connection.close()
    }

    /// `body`'s result, trying again (up to 20 times, 100 ms apart) while it throws.
    private static func eventually<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 1..<20 {
            if let result = try? await body() { return result }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await body()
    }
}
