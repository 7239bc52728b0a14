import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import Logging
import ReadModel
import Synchronization
import Testing

/// What a wait in another task returned: nil while it still waits.
private final class WaitOutcome: Sendable {
    let value = Mutex<Bool?>(nil)
}

@Suite("projection runner")
struct ProjectionRunnerTests {
    private func start(_ runner: ProjectionRunner) -> Task<Void, any Error> {
        Task { try await runner.run() }
    }

    @Test("applies events into SQLite and stores the checkpoint with them", arguments: Backend.allCases)
    func appliesAndCheckpoints(backend: Backend) async throws {
        let log = try await backend.makeLog()
        var head = Checkpoint.start
        for n in 1...30 {
            _ = try await log.store.append(to: "item-\(n % 4)", expected: .any, events: [testEvent("Titled", ["n": n])])
            head = try await log.store.append(to: "other-\(n)", expected: .any, events: [testEvent("Ignored")]).checkpoint
        }
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(
            store: log.store, database: database, projection: TitlesProjection(), pageSize: 7, logger: Logger(label: "test"))
        let running = start(runner)
        // The checkpoint of the last append, not head(): on PostgreSQL another test's open
        // transaction may hold the visible head back.
        #expect(await runner.waitUntilApplied(head, timeout: .seconds(30)))
        #expect(runner.status.isCaughtUp)
        #expect(
            try TitlesProjection.titles(in: database.pool) == [
                "item-0": "title 28", "item-1": "title 29", "item-2": "title 30", "item-3": "title 27",
            ])
        // The checkpoint is stored with the rows (it may have moved on since, past events of
        // other categories, so compare with what was applied rather than the live status).
        #expect(try database.checkpoint(of: "titles") >= head)

        // Live: a new event arrives without a restart.
        let next = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": 99])])
        #expect(await runner.waitUntilApplied(next.checkpoint, timeout: .seconds(20)))
        #expect(try TitlesProjection.titles(in: database.pool)["item-1"] == "title 99")
        running.cancel()
        try? await running.value
        await log.close()
    }

    @Test(
        "with no read model it loads the log in bulk, index built at the end; a bulk load cut short goes on in bulk after a restart and ends"
    )
    func bulkLoadFromTheStart() async throws {
        let log = try await Backend.sqlite.makeLog()
        func append(_ range: ClosedRange<Int>) async throws -> Checkpoint {
            var last = Checkpoint.start
            for n in range { last = try await log.store.append(to: "item-\(n)", expected: .any, events: [testEvent("Titled", ["n": n])]).checkpoint }
            return last
        }
        func catchUp(_ database: ReadModelDatabase, to checkpoint: Checkpoint) async throws {
            let runner = ProjectionRunner(
                store: log.store, database: database, projection: TitlesProjection(), pageSize: 7, logger: Logger(label: "test"))
            let running = start(runner)
            #expect(await runner.waitUntilApplied(checkpoint, timeout: .seconds(30)))
            #expect(runner.status.isCaughtUp)
            running.cancel()
            try? await running.value
        }
        func bulkLoads(_ database: ReadModelDatabase) throws -> Int {
            try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM projection_bulk_loads") ?? -1 }
        }
        let directory = temporaryDirectory()
        var database = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        try await catchUp(database, to: try await append(1...40))
        #expect(try TitlesProjection.titles(in: database.pool).count == 40)
        #expect(try TitlesProjection.isIndexed(in: database.pool))
        #expect(try bulkLoads(database) == 0)

        // As a process killed during its bulk load leaves the file: the index deferred, the load begun.
        try await database.pool.write { db in
            try db.execute(sql: "DROP INDEX titles_by_title; INSERT INTO projection_bulk_loads (projection, started_at) VALUES ('titles', 0)")
        }
        try database.pool.close()
        database = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        try await catchUp(database, to: try await append(41...60))
        #expect(try TitlesProjection.titles(in: database.pool).count == 60)
        #expect(try TitlesProjection.isIndexed(in: database.pool), "the load went on in bulk and built the index")
        #expect(try bulkLoads(database) == 0)
        try database.pool.close()
        await log.close()
    }

    @Test(
        "after an account deletion the read model forgets erased rows once it reaches the head: once for a catch-up over many deletions, again for a live one"
    )
    func erasureCleanUpOncePerCatchUp() async throws {
        let log = try await Backend.sqlite.makeLog()
        var head = Checkpoint.start
        // Three deletions, each in a different full page of 5.
        for n in 0..<15 {
            head = try await log.store.append(
                to: "item-\(n)", expected: .any, events: [testEvent(n % 5 == 0 ? "AccountDeleted" : "Titled", ["n": n])]
            ).checkpoint
        }
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "erasing", projections: [ErasureCounter()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: ErasureCounter(), pageSize: 5, logger: Logger(label: "test"))
        let running = start(runner)
        #expect(await runner.waitUntilApplied(head, timeout: .seconds(30)))
        #expect(try await ErasureCounter.cleanUps(in: database.pool, reaching: 1) == 1)

        let live = try await log.store.append(to: "item-live", expected: .any, events: [testEvent("AccountDeleted", ["n": 99])])
        #expect(await runner.waitUntilApplied(live.checkpoint, timeout: .seconds(20)))
        #expect(try await ErasureCounter.cleanUps(in: database.pool, reaching: 2) == 2)
        running.cancel()
        try? await running.value
        await log.close()
    }

    @Test(
        "a runner wakes only for its own categories, yet waiting for a position other categories' appends reached wakes it to read up to there",
        arguments: Backend.allCases)
    func waitingWakesTheRunner(backend: Backend) async throws {
        // Polls an hour apart: only a wake-up moves the runner.
        let log = try await backend.makeLog(pollInterval: .seconds(3_600))
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: TitlesProjection(), logger: Logger(label: "test"))
        let running = start(runner)
        let own = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": 1])])
        #expect(await runner.waitUntilApplied(own.checkpoint, timeout: .seconds(30)))
        // Time to finish its page and wait for the next append to its categories.
        try await Task.sleep(for: .milliseconds(500))
        let other = try await log.store.append(to: "other-1", expected: .any, events: [testEvent("Ignored")])
        #expect(await runner.waitUntilApplied(other.checkpoint, timeout: .seconds(30)))
        #expect(try TitlesProjection.titles(in: database.pool) == ["item-1": "title 1"])
        running.cancel()
        try? await running.value
        await log.close()
    }

    @Test("waiting for a position wakes that runner alone, not another that reads the same categories")
    func waitingWakesOneRunner() async throws {
        // Polls an hour apart: only a wake-up moves a runner. The log is embedded, so no read
        // finds events held back and reads again on its own.
        let log = try await Backend.sqlite.makeLog(pollInterval: .seconds(3_600))
        let titles = ProjectionRunner(
            store: log.store, database: try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()]),
            projection: TitlesProjection(), logger: Logger(label: "test"))
        let erasing = ProjectionRunner(
            store: log.store, database: try ReadModelDatabase(directory: temporaryDirectory(), name: "erasing", projections: [ErasureCounter()]),
            projection: ErasureCounter(), logger: Logger(label: "test"))
        let running = [start(titles), start(erasing)]
        let own = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": 1])])
        #expect(await titles.waitUntilApplied(own.checkpoint, timeout: .seconds(30)))
        // Watched, not waited for: a wait would wake it by name, and a wake that then finds
        // nothing makes its next wait one for any category.
        for _ in 0..<3_000 where erasing.status.checkpoint < own.checkpoint { try await Task.sleep(for: .milliseconds(10)) }
        #expect(erasing.status.checkpoint >= own.checkpoint)
        try await Task.sleep(for: .milliseconds(500))
        let other = try await log.store.append(to: "other-1", expected: .any, events: [testEvent("Ignored")])
        #expect(await titles.waitUntilApplied(other.checkpoint, timeout: .seconds(30)))
        try await Task.sleep(for: .milliseconds(200))
        #expect(erasing.status.checkpoint < other.checkpoint, "the other runner was not woken to read")
        for task in running { task.cancel() }
        for task in running { try? await task.value }
        await log.close()
    }

    @Test("waiting for a checkpoint the projection never reaches times out")
    func waitTimesOut() async throws {
        let log = try await Backend.sqlite.makeLog()
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: TitlesProjection(), logger: Logger(label: "test"))
        let running = start(runner)
        #expect(await runner.waitUntilApplied(Checkpoint(transaction: 0, position: 1_000), timeout: .milliseconds(300)) == false)
        running.cancel()
        await log.close()
    }

    @Test("a wait for a checkpoint that is cancelled ends then, not at its timeout")
    func cancelledWaitEnds() async throws {
        let log = try await Backend.sqlite.makeLog()
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: TitlesProjection(), logger: Logger(label: "test"))
        let running = start(runner)
        let unreachable = Checkpoint(transaction: 0, position: 1_000)
        let ended = WaitOutcome()
        let waiting = Task {
            let applied = await runner.waitUntilApplied(unreachable, timeout: .seconds(3_600))
            ended.value.withLock { $0 = applied }
        }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        // Given a minute to end: a runner that spins until its timeout would take an hour here.
        for _ in 0..<600 where ended.value.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(100)) }
        #expect(ended.value.withLock { $0 } == false)
        running.cancel()
        await log.close()
    }

    @Test("an event the projection cannot handle halts it until an operator parks it", arguments: Backend.allCases)
    func parking(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let poison = testEvent("Poison")
        _ = try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": 1])])
        _ = try await log.store.append(to: "item-2", expected: .any, events: [poison])
        let last = try await log.store.append(to: "item-3", expected: .any, events: [testEvent("Titled", ["n": 3])])
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(
            store: log.store, database: database, projection: TitlesProjection(), pageSize: 100, logger: Logger(label: "test"))
        let running = start(runner)
        // On PostgreSQL another test's open transaction can hold delivery back for a while.
        for _ in 0..<300 where runner.status.stalledOn == nil { try await Task.sleep(for: .milliseconds(100)) }
        #expect(runner.status.stalledOn?.contains(poison.id.uuidString) == true)
        #expect(await runner.waitUntilApplied(last.checkpoint, timeout: .milliseconds(500)) == false)
        // The failing batch was rolled back: nothing at or after the poison is applied.
        #expect(try TitlesProjection.titles(in: database.pool)["item-3"] == nil)

        try await ProjectionParking.park(poison.id, projection: "titles", reason: "unreadable body", in: log.store)
        #expect(await runner.waitUntilApplied(last.checkpoint, timeout: .seconds(30)))
        #expect(try TitlesProjection.titles(in: database.pool) == ["item-1": "title 1", "item-3": "title 3"])
        #expect(runner.status.stalledOn == nil)
        #expect(try await ProjectionParking.parked(for: "titles", in: log.store) == [poison.id: "unreadable body"])
        try await ProjectionParking.unpark(poison.id, projection: "titles", in: log.store)
        #expect(try await ProjectionParking.parked(for: "titles", in: log.store).isEmpty)
        running.cancel()
        await log.close()
    }

    @Test("a rebuild fills a new file while the old one serves, then swaps in atomically")
    func rebuildAndSwap() async throws {
        let log = try await Backend.sqlite.makeLog()
        for n in 1...50 {
            _ = try await log.store.append(to: "item-\(n)", expected: .any, events: [testEvent("Titled", ["n": n])])
        }
        let directory = temporaryDirectory()
        let database = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: TitlesProjection(), logger: Logger(label: "test"))
        let running = start(runner)
        #expect(await runner.waitUntilApplied(try await log.store.head(), timeout: .seconds(20)))
        let oldPool = database.pool

        let newFile = database.newFilePath()
        let applied = try await ReadModelRebuild.rebuild(projections: [TitlesProjection()], from: log.store, into: newFile)
        #expect(applied == 50)
        try database.swap(to: newFile)
        #expect(database.path == newFile)
        // A reader that held the old pool still reads it.
        #expect(try TitlesProjection.titles(in: oldPool).count == 50)
        // The runner goes on in the new file.
        let next = try await log.store.append(to: "item-51", expected: .any, events: [testEvent("Titled", ["n": 51])])
        #expect(await runner.waitUntilApplied(next.checkpoint, timeout: .seconds(20)))
        #expect(try TitlesProjection.titles(in: database.pool).count == 51)
        // A restart opens the swapped-in file.
        let reopened = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        #expect(reopened.path == newFile)
        running.cancel()
        await log.close()
    }

    @Test("after each erasure the WAL is emptied, even while another connection checkpoints it back to back")
    func walEmptiedBesideOtherCheckpoints() async throws {
        let log = try await Backend.sqlite.makeLog()
        let database = try ReadModelDatabase(directory: temporaryDirectory(), name: "erasing", projections: [ErasureCounter()])
        let runner = ProjectionRunner(store: log.store, database: database, projection: ErasureCounter(), logger: Logger(label: "test"))
        let running = Task { try await runner.run() }
        // As the read model's own checkpointer does beside the writer: a checkpoint that meets
        // one of these running gives up at once rather than wait.
        let other = try DatabaseQueue(path: database.path)
        let checkpointing = Task {
            while !Task.isCancelled {
                try? await other.writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            }
        }
        let wal = database.path + "-wal"
        func walBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int) ?? 0 }
        for n in 1...20 {
            _ = try await log.store.append(to: "item-\(n)", expected: .any, events: [testEvent("AccountDeleted", ["n": n])])
            #expect(try await ErasureCounter.cleanUps(in: database.pool, reaching: n) == n)
            // The runner keeps trying for 10 s while the other checkpoints hold the WAL busy.
            let emptied = (try? await waitFor("the WAL to be emptied") { walBytes() == 0 }) != nil
            #expect(emptied, "erasure \(n): the WAL still holds \(walBytes()) bytes, old copies of pages among them")
        }
        checkpointing.cancel()
        _ = await checkpointing.value
        running.cancel()
        try? await running.value
        await log.close()
    }

    @Test("a rebuild until a checkpoint or a time shows the read model as it was then")
    func timeTravel() async throws {
        let log = try await Backend.sqlite.makeLog()
        var checkpoints: [Checkpoint] = []
        for n in 1...10 {
            checkpoints.append(try await log.store.append(to: "item-1", expected: .any, events: [testEvent("Titled", ["n": n])]).checkpoint)
        }
        let untilFourth = temporaryDirectory().appendingPathComponent("until.sqlite").path
        try FileManager.default.createDirectory(atPath: (untilFourth as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let applied = try await ReadModelRebuild.rebuild(
            projections: [TitlesProjection()], from: log.store, into: untilFourth, until: .checkpoint(checkpoints[3]))
        #expect(applied == 4)
        #expect(try TitlesProjection.titles(in: try DatabasePool(path: untilFourth)) == ["item-1": "title 4"])

        let past = temporaryDirectory().appendingPathComponent("past.sqlite").path
        try FileManager.default.createDirectory(atPath: (past as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let none = try await ReadModelRebuild.rebuild(
            projections: [TitlesProjection()], from: log.store, into: past, until: .time(Date(timeIntervalSince1970: 0)))
        #expect(none == 0)
        await log.close()
    }
}

/// Counts the clean-ups the runner asks for after erasures (``Projection/forgetErased(in:)``).
private struct ErasureCounter: Projection {
    let name = "erasing"
    let filter = EventFilter(categories: ["item"])

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("erasing-v1") { db in try db.execute(sql: "CREATE TABLE cleanups (n INTEGER NOT NULL)") }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {}

    func forgetErased(in db: Database) throws {
        try db.execute(sql: "INSERT INTO cleanups (n) VALUES (1)")
    }

    /// The clean-ups so far, once they reach `count` (they follow the checkpoint by a moment)
    /// or 10 s have passed.
    static func cleanUps(in pool: DatabasePool, reaching count: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let seen = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cleanups") ?? 0 }
            if seen >= count || ContinuousClock.now > deadline { return seen }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
