import EventLog
import EventLogTestSupport
import Foundation
import ReadModel
import Testing

/// `commons events stats`, run as a process on both backends.
@Suite("commons events: stats")
struct EventsStatsTests {
    @Test("stats counts events by category and type and shows each read model's checkpoint and lag", arguments: Backend.allCases)
    func stats(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2", "invoice-1", "order-1"])
        try await appendVisibly(log, to: "invoice-1", [testEvent("Paid")])
        let head = try await log.store.head()
        let dataDirectory = try scratchDirectory()
        // A read model two events behind the head, as a service would leave it.
        let readModel = try ReadModelDatabase(directory: dataDirectory, name: "orders", projections: [])
        let checkpoint = events[2].checkpoint
        try await readModel.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO projection_checkpoints (projection, transaction_id, position, updated_at)
                    VALUES ('order-totals', \(checkpoint.transaction), \(checkpoint.position), 0)
                    """)
        }

        let result = try await commons("events", "stats", "--data-dir", dataDirectory.path, log: log)

        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "events: 5",
                "head: \(head)",
                "by category:",
                "  invoice  2",
                "  order    3",
                "by type:",
                "  Paid    1",
                "  Tested  4",
                "read models:",
                "  orders (orders.sqlite): order-totals at \(checkpoint), lag \(head.position - checkpoint.position)",
            ])
        await log.close()
    }

    @Test("stats on an empty log with no read models", arguments: Backend.allCases)
    func empty(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let dataDirectory = try scratchDirectory()

        let result = try await commons("events", "stats", log: log, environment: ["COMMONS_DATA_DIR": dataDirectory.path])

        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["events: 0", "head: 0:0", "by category:", "by type:", "read models: none in \(dataDirectory.path)"])
        await log.close()
    }
}
