import Foundation
import GRDB
import Testing

@testable import ReadModel

/// No copy of a read model outlives its use: rows a deleted account left in a replaced,
/// interrupted or damaged file would be out of erasure's reach.
@Suite("read-model files that are not live are removed")
struct ReadModelFilesTests {
    @Test("a swap removes the file it replaced, with its WAL, once the grace for its readers is over")
    func swapRemovesReplaced() async throws {
        let directory = temporaryDirectory()
        let database = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()], retireAfter: .zero)
        let replaced = database.path
        try await database.pool.write { db in try db.execute(sql: "INSERT INTO titles (stream, title, version) VALUES ('a', 'Lamp', 1)") }
        #expect(FileManager.default.fileExists(atPath: replaced + "-wal"))

        try database.swap(to: database.newFilePath())
        #expect(try await eventually { ReadModelFiles.suffixes.allSatisfy { !FileManager.default.fileExists(atPath: replaced + $0) } })
        #expect(FileManager.default.fileExists(atPath: database.path))
        #expect(try TitlesProjection.titles(in: database.pool).isEmpty)
    }

    @Test("a process that follows another's swap removes the file it read before")
    func followerRemovesReplaced() async throws {
        let directory = temporaryDirectory()
        let swapper = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()], retireAfter: .seconds(3_600))
        let follower = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()], retireAfter: .zero)
        let replaced = follower.path

        try swapper.swap(to: swapper.newFilePath())
        #expect(try follower.followSwap())
        #expect(try await eventually { !FileManager.default.fileExists(atPath: replaced) })
        #expect(FileManager.default.fileExists(atPath: follower.path))
    }

    @Test("a start removes every file of the read model that is not live, but not a rebuild still running nor other files")
    func startSweeps() throws {
        let directory = temporaryDirectory()
        let live = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()]).path
        let leftovers = [
            "items.1700000000000.sqlite", "items.1700000000000.sqlite-wal", "items.1700000000000.sqlite-shm",
            "items.1700000000001.sqlite.rebuilding", "items.1700000000001.sqlite", "items.sqlite.damaged-1700000000002",
            "items.sqlite.damaged-1700000000002-wal", "items.current.tmp-5E2B",
        ]
        let others = ["events.sqlite", "itemsets.sqlite", "items-archive.sqlite", "outbox"]
        for name in leftovers + others { try Data("rows".utf8).write(to: directory.appendingPathComponent(name)) }
        let running = directory.appendingPathComponent("items.1800000000000.sqlite").path
        try Data("rows".utf8).write(to: URL(fileURLWithPath: running))
        let lock = try RebuildLock(for: running)
        defer { lock.release() }

        let reopened = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        #expect(reopened.path == live)
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(present.isDisjoint(with: leftovers), "\(present.sorted())")
        #expect(present.isSuperset(of: others + ["items.1800000000000.sqlite", "items.1800000000000.sqlite.rebuilding", "items.current"]))
        #expect(present.contains(URL(fileURLWithPath: live).lastPathComponent))
    }

    @Test("a damaged live file is removed, not kept aside, and an empty one takes its place")
    func damagedRemoved() throws {
        let directory = temporaryDirectory()
        let first = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        let damaged = first.path
        try first.pool.close()
        let marker = "DAMAGED-ROWS-\(UUID().uuidString)"
        try Data(String(repeating: marker, count: 200).utf8).write(to: URL(fileURLWithPath: damaged))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: damaged + suffix) }

        let reopened = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        #expect(reopened.path != damaged)
        #expect(try TitlesProjection.titles(in: reopened.pool).isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(name) still holds the damaged file's bytes")
        }
    }

    @Test("after a swap the WAL checkpointer copies the new file's commits into it, and no connection of its keeps the replaced file open")
    func checkpointerFollowsSwap() async throws {
        let directory = temporaryDirectory()
        let database = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()], retireAfter: .zero)
        let replaced = database.path
        try await database.pool.write { db in try db.execute(sql: "INSERT INTO titles (stream, title, version) VALUES ('a', 'Lamp', 1)") }
        database.checkpointer.committed(to: database.pool)
        #expect(try await eventually { Self.openDescriptors(of: replaced) > 0 }, "the checkpointer has a connection to the live file")

        try database.swap(to: database.newFilePath())
        #expect(try await eventually { !FileManager.default.fileExists(atPath: replaced) })
        #expect(Self.openDescriptors(of: replaced) == 0, "nothing keeps the replaced file open")
        let live = database.path
        let before = Self.size(of: live)
        // A megabyte of titles, committed to the WAL alone until a checkpoint copies it.
        try await database.pool.write { db in
            for n in 0..<256 {
                try db.execute(
                    sql: "INSERT INTO titles (stream, title, version) VALUES (?, ?, 1)", arguments: ["s\(n)", String(repeating: "x", count: 4_000)])
            }
        }
        #expect(Self.size(of: live) == before, "the commit waits in the WAL")
        database.checkpointer.committed(to: database.pool)
        #expect(try await eventually { Self.size(of: live) > before + 1_000_000 }, "the new file's WAL is checkpointed into it")
    }

    private static func size(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    /// How many of this process's open files are the file at `path` (removed or not).
    private static func openDescriptors(of path: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
            return target == path || target == path + " (deleted)"
        }.count
    }

    /// Whether `condition` holds within a generous deadline, asking every 20 ms.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
