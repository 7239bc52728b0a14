import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import Logging
import ReadModel
import Testing

/// A live read model's commits are copied from its WAL into the file by a checkpoint of
/// their own, not by the commit that fills the WAL.
@Suite("read model WAL checkpoints")
struct WALCheckpointTests {
    /// The titles in the file alone, without its WAL: what checkpoints have copied there
    /// (none while not even the table has been copied).
    private func titlesInFile(_ path: String) throws -> [String: String] {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("commons-file-only-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let pool = try DatabasePool(path: copy)
        guard try pool.read({ db in try db.tableExists("titles") }) else { return [:] }
        return try TitlesProjection.titles(in: pool)
    }

    @Test(
        "the live file's writer leaves checkpoints to a connection of their own, which copies a runner's commits into the file soon after",
        arguments: Backend.allCases)
    func checkpointedAfterCommits(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let limit = try await database.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        #expect(limit == 8_000, "the writer checkpoints itself only past 8,000 pages")

        let runner = ProjectionRunner(store: log.store, database: database, projection: TitlesProjection(), logger: Logger(label: "test"))
        let running = Task { try await runner.run() }
        let appended = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": 7])])
        #expect(await runner.waitUntilApplied(appended.checkpoint, timeout: .seconds(30)))
        // One small commit is far below any limit of the writer's: only the checkpointer copies it.
        // A copy taken while a checkpoint writes the file may be torn (SQLite then calls it
        // malformed): that copy is taken again, as one taken before the checkpoint is.
        var inFile: [String: String] = [:]
        for _ in 0..<100 {
            inFile = (try? titlesInFile(database.pool.path)) ?? [:]
            if !inFile.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(inFile == ["item-1": "title 7"])
        running.cancel()
        try? await running.value
        await log.close()
    }
}
