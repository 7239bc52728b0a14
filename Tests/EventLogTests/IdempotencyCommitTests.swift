import EventLog
import EventLogTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// Idempotency records commit without waiting for the disk, and only they: the setting is
/// their transaction's own, never the pooled connection's, whose next statement may be an
/// append that must wait.
@Suite("idempotency records' commits on PostgreSQL")
struct IdempotencyCommitTests {
    @Test(
        "a claim, a finish and a release leave the connection committing synchronously, and the records read back",
        arguments: [0, 1])
    func settingStaysWithTheStatement(ownConnections: Int) async throws {
        var configuration = try Backend.freshSchema("sync")
        configuration.maximumConnections = 1
        configuration.statementConnections = ownConnections
        let store = try await PostgresEventStore(configuration: configuration, logger: Logger(label: "test"))
        let records = PostgresIdempotencyRecords(store: store)
        let now = Date()
        let lease = now.addingTimeInterval(60)

        #expect(try await Self.synchronousCommit(store) == "on")
        #expect(try await records.claim(scope: "s", key: "finished", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        #expect(try await Self.synchronousCommit(store) == "on")
        try await records.finish(scope: "s", key: "finished", response: Data("answer".utf8))
        #expect(try await Self.synchronousCommit(store) == "on")
        #expect(try await records.claim(scope: "s", key: "released", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        try await records.release(scope: "s", key: "released")
        #expect(try await Self.synchronousCommit(store) == "on")

        #expect(try await records.claim(scope: "s", key: "finished", requestHash: "h", now: now, leaseUntil: lease) == .replay(Data("answer".utf8)))
        #expect(try await records.claim(scope: "s", key: "released", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        // An append on the same (only) connection still commits as the server is set to.
        _ = try await store.append(to: "sync-1", expected: .noStream, events: [testEvent()])
        #expect(try await Self.synchronousCommit(store) == "on")
        await store.shutdown()
    }

    /// `synchronous_commit` between statements, as the connection the store's statements run
    /// on has it: the store's own one, or with none the pool's only one.
    private static func synchronousCommit(_ store: PostgresEventStore) async throws -> String {
        guard let value = try await store.statements.execute(ShowSynchronousCommit(), logger: Logger(label: "test")).first
        else { throw TestSetupError("no synchronous_commit") }
        return value
    }
}

private struct ShowSynchronousCommit: PostgresPreparedStatement {
    static let sql = "SELECT current_setting('synchronous_commit')"
    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}
