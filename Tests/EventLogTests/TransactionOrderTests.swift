import EventLog
import EventLogTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// A log copied from another cluster carries transaction ids this cluster has not reached.
@Suite("PostgreSQL log moved between clusters")
struct TransactionOrderTests {
    @Test("a log whose stored transaction ids are ahead of the cluster is refused at start, with what to do; a normal log opens")
    func refusesIdsFromAnotherCluster() async throws {
        let configuration = try Backend.freshSchema()
        let store = try await PostgresEventStore(configuration: configuration)
        _ = try await store.append(to: "moved-1", expected: .noStream, events: [testEvent("BeforeTheMove")])
        await store.shutdown()

        // Reopening the same log is fine.
        let again = try await PostgresEventStore(configuration: configuration)
        // As pg_restore into a younger cluster leaves it: ids a million transactions ahead.
        try await again.client.query(
            """
            UPDATE \(unescaped: configuration.schema).events
            SET transaction_id = ((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text)::xid8
            """)
        await again.shutdown()

        let error = await #expect(throws: PostgresEventStoreError.self) { _ = try await PostgresEventStore(configuration: configuration) }
        #expect(error?.description.contains("copied from another cluster") == true, "\(String(describing: error))")
        #expect(error?.description.contains("commons events export") == true)
    }
}

/// A service started while PostgreSQL is down.
@Suite("PostgreSQL not up yet at start")
struct StartupPatienceTests {
    @Test("opening waits for a server that comes up within its patience, and past it reports an outage, not a wrong setting")
    func waitsForTheServer() async throws {
        try await ThrowawayPostgres.with { cluster in
            try await cluster.pause()
            var configuration = try PostgresEventStoreConfiguration(url: cluster.url)
            configuration.startupPatience = .seconds(1)
            await #expect(throws: PostgresNotReachable.self) { _ = try await PostgresEventStore(configuration: configuration) }

            configuration.startupPatience = .seconds(60)
            let opening = Task { try await PostgresEventStore(configuration: configuration) }
            try await Task.sleep(for: .seconds(2))
            try await cluster.resume()
            let store = try await opening.value
            _ = try await store.append(to: "late-1", expected: .noStream, events: [testEvent("AfterTheWait")])
            await store.shutdown()
        }
    }
}
