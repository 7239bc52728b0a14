import EventLogSQLite
import Foundation
import Synchronization
import Testing

/// `commons up` starts five services at once on one fresh SQLite log: each opens the log
/// and its blob file, and the first opening of each switches the file to WAL.
@Suite("Opening the SQLite log from many places at once")
struct SQLiteOpeningTests {
    @Test("many openers of one fresh log and blob file all succeed")
    func concurrentOpenings() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-open-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let failures = Mutex([String]())
        for round in 0..<40 {
            let path = directory.appendingPathComponent("log-\(round).sqlite").path
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    _ = try SQLiteEventStore(path: path)
                    _ = try SQLiteBlobStore(path: path + ".blobs")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
