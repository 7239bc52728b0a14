import EventLog
import EventLogPostgres
import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// Every event of `filter` appended before the call, once nothing can hold them back.
///
/// A PostgreSQL log delivers an event only when its transaction is below the cluster's
/// visibility horizon, and another suite's open transaction on the shared test server can
/// hold that horizon back for a while. A test that reads the whole log right after writing
/// and asserts that something is absent would then pass on a log that held everything
/// back. So this first waits (up to `patience`) until every transaction that had begun
/// when it was called has ended, then reads to the head. SQLite holds nothing back.
public func settledEvents(
    of store: any EventStore, filter: EventFilter = .all,
    patience: Duration = .seconds(30)
) async throws -> [RecordedEvent] {
    let deadline = ContinuousClock.now + patience
    if let postgres = store as? PostgresEventStore { try await waitForHorizon(postgres.configuration, patience: patience) }
    var events: [RecordedEvent] = []
    var checkpoint = Checkpoint.start
    while true {
        let page = try await store.readAll(after: checkpoint, limit: 1_000, filter: filter)
        events += page.events
        if page.reachedHead { return events }
        if page.checkpoint == checkpoint {
            // Held back still: a transaction begun since (or the store is one that wraps the
            // log, whose horizon was not waited for) keeps the rest from being delivered.
            guard ContinuousClock.now < deadline else { throw TestSetupError("the log held events back for \(patience)") }
            try await Task.sleep(for: .milliseconds(20))
            continue
        }
        checkpoint = page.checkpoint
    }
}

/// Waits until the cluster's visibility horizon has passed every transaction id assigned so far.
private func waitForHorizon(_ configuration: PostgresEventStoreConfiguration, patience: Duration) async throws {
    let logger = Logger(label: "test")
    let connection = try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(),
        configuration: try configuration.connection(), id: 1, logger: logger)
    do {
        func value(_ sql: String) async throws -> Int64 {
            for try await number in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64.self) { return number }
            throw TestSetupError("no answer to \(sql)")
        }
        let assigned = try await value("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::int8")
        let deadline = ContinuousClock.now + patience
        while try await value("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::int8") < assigned {
            guard ContinuousClock.now < deadline else { throw TestSetupError("a transaction held the visibility horizon back for \(patience)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    } catch {
        try? await connection.close()
        throw error
    }
    try await connection.close()
}
