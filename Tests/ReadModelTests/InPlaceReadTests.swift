import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import ReadModel

/// Reads in place run on the calling thread; they must never wait for the connections that
/// `async` reads hold while their tasks wait for a thread (a process stopped answering so).
@Suite("reads in place")
struct InPlaceReadTests {
    @Test("a read in place finds a connection while every reader of the live pool is held")
    func inPlaceReadsDoNotWaitForThePool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inplace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let readModel = try ReadModelDatabase(directory: directory, name: "inplace", projections: [])
        let pool = readModel.pool
        let readers = pool.configuration.maximumReaderCount
        let (entered, gate, left) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        for _ in 0..<readers {
            pool.asyncRead { _ in
                entered.signal()
                gate.wait()
                left.signal()
            }
        }
        for _ in 0..<readers { #expect(entered.wait(timeout: .now() + 30) == .success) }

        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let value = try? readModel.readInPlace { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            answer.withLock { $0 = value ?? nil }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 30) == .success
        // Let the held readers go either way, so that a failure does not hang the run.
        for _ in 0..<readers { gate.signal() }
        for _ in 0..<readers { _ = left.wait(timeout: .now() + 30) }
        if !finished { _ = done.wait(timeout: .now() + 30) }
        #expect(finished, "the read in place waited for the live pool's readers")
        #expect((answer.withLock { $0 } ?? 0) > 0, "the read in place saw the migrated schema")
    }

    @Test("reads in place, more at once than are kept idle, each find a connection, see what the writer committed, and follow a swap")
    func manyReadsAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inplace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let readModel = try ReadModelDatabase(directory: directory, name: "inplace", projections: [])
        try readModel.pool.write { db in
            try db.execute(sql: "CREATE TABLE counted (n INTEGER)")
            try db.execute(sql: "INSERT INTO counted VALUES (1), (2), (3)")
        }
        // Twenty reads held open at once on threads of their own: none may wait for another.
        let readers = 20
        let (entered, gate, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let sums = Mutex<[Int]>([])
        for _ in 0..<readers {
            Thread.detachNewThread {
                let sum = try? readModel.readInPlace { db -> Int in
                    entered.signal()
                    gate.wait()
                    return try Int.fetchOne(db, sql: "SELECT sum(n) FROM counted") ?? 0
                }
                sums.withLock { $0.append(sum ?? -1) }
                done.signal()
            }
        }
        var allEntered = true
        for _ in 0..<readers where entered.wait(timeout: .now() + 30) != .success { allEntered = false }
        for _ in 0..<readers { gate.signal() }
        for _ in 0..<readers { _ = done.wait(timeout: .now() + 30) }
        #expect(allEntered, "a read in place waited for another")
        #expect(sums.withLock { $0 } == Array(repeating: 6, count: readers))

        // A file rebuilt beside the live one and swapped in is what the next read sees.
        let rebuilt = readModel.newFilePath()
        let queue = try DatabaseQueue(path: rebuilt)
        try queue.write { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE counted (n INTEGER)")
            try db.execute(sql: "INSERT INTO counted VALUES (10)")
        }
        try queue.close()
        try readModel.swap(to: rebuilt)
        #expect(try readModel.readInPlace { db in try Int.fetchOne(db, sql: "SELECT sum(n) FROM counted") } == 10)
    }

    @Test("connections opened for reads at once are closed when given back beyond the few kept idle")
    func idleConnectionsBounded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inplace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let readModel = try ReadModelDatabase(directory: directory, name: "inplace", projections: [])
        let readers = try InPlaceReaders(path: readModel.path, file: "inplace")
        #expect(readers.idleCount == 1, "one connection is opened at once, to fail early")
        let (entered, gate, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let atOnce = InPlaceReaders.keptIdle + 4
        for _ in 0..<atOnce {
            Thread.detachNewThread {
                _ = try? readers.read { _ in
                    entered.signal()
                    gate.wait()
                }
                done.signal()
            }
        }
        for _ in 0..<atOnce { _ = entered.wait(timeout: .now() + 30) }
        #expect(readers.idleCount == 0)
        for _ in 0..<atOnce { gate.signal() }
        for _ in 0..<atOnce { _ = done.wait(timeout: .now() + 30) }
        #expect(readers.idleCount == InPlaceReaders.keptIdle)
        #expect(try readers.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
}
