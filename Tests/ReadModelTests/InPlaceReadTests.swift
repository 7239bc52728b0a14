import Dispatch
import Foundation
import GRDB
import ReadModel
import Synchronization
import Testing

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
}
