import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import Spawn
import Testing

/// A projector killed with SIGKILL at any point, then restarted, ends with the same read
/// model as a full replay: nothing lost, nothing applied twice.
@Suite("crash recovery")
struct CrashRecoveryTests {
    /// The test projector, built beside this test bundle.
    private var projector: URL {
        let executable = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return executable.deletingLastPathComponent().appendingPathComponent("commons-test-projector")
    }

    private func launch(_ arguments: [String]) throws -> SpawnedProcess {
        try SpawnedProcess(projector.path, arguments, stdout: .null, stderr: .null)
    }

    private func tallies(_ path: String) throws -> [String: [Int]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var result: [String: [Int]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT stream, events, total FROM tallies") {
                result[row["stream"]] = [row["events"], row["total"]]
            }
            return result
        }
    }

    /// Where the projector's read model got to; 0 before it stored its first page.
    private func checkpoint(_ path: String) throws -> Int64 {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int64.fetchOne(db, sql: "SELECT position FROM projection_checkpoints") ?? 0 }
    }

    @Test("a projector killed mid-batch with SIGKILL catches up to exactly a full replay")
    func killedMidBatch() async throws {
        let log = try await Backend.sqlite.makeLog()
        guard let events = log.sqliteFile else { throw TestSetupError("not an SQLite log") }
        var positions: [Int64] = []
        for n in 0..<3_000 {
            positions.append(
                try await log.store.append(to: "tally-\(n % 30)", expected: .any, events: [testEvent("Counted", ["n": n])]).checkpoint.position)
        }
        let head = try await log.store.head().position
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-crash-\(UUID().uuidString)").path
        let readModel = directory + "/tally.sqlite"

        // Killed three times while it applies a page, at an event anywhere in a third of the log.
        var lastCheckpoint: Int64 = 0
        for point in [Int.random(in: 1..<1_000), Int.random(in: 1_000..<2_000), Int.random(in: 2_000..<3_000)] {
            let process = try launch(["follow", events, directory, "--page-size", "50", "--block-at", "\(point)"])
            do {
                try await waitFor("the projector to stop at event \(point)", patience: .seconds(120)) {
                    FileManager.default.fileExists(atPath: directory + "/blocked-\(point)")
                }
            } catch {
                process.send(SIGKILL)
                throw error
            }
            process.send(SIGKILL)
            #expect(await process.waitUntilExit() == .killed(signal: SIGKILL))
            let reached = try checkpoint(readModel)
            #expect(reached >= lastCheckpoint)
            #expect(reached < positions[point], "the page being applied at \(point) was not stored")
            lastCheckpoint = reached
        }

        let finish = try launch(["follow", events, directory, "--until-caught-up"])
        #expect(await finish.waitUntilExit() == .exited(0))
        #expect(try checkpoint(readModel) == head)

        let replay = directory + "/replay.sqlite"
        let replaying = try launch(["replay", events, replay])
        #expect(await replaying.waitUntilExit() == .exited(0))
        let expected = try tallies(replay)
        #expect(expected.values.map { $0[0] }.reduce(0, +) == 3_000)
        #expect(try tallies(readModel) == expected)
        await log.close()
    }
}
