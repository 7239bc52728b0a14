import Foundation
import GRDB
import ReadModel
import Testing

/// `Statement.map` reads each column straight from SQLite; GRDB's own decoding is the
/// reference it must agree with, on a real file.
@Suite("SQLite columns")
struct SQLiteColumnsTests {
    private struct Stored: Equatable {
        var id: UUID?
        var count: Int64?
        var amount: Double?
        var text: String?
    }

    private func withFile<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("columns-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, id TEXT, count INTEGER, amount REAL, text TEXT)")
        }
        return try body(queue)
    }

    private static let texts = ["", "plain", "Zoë's café ☕️", "line\nbreak", "\"quoted\" \\ slash", String(repeating: "long ", count: 400)]

    @Test("every column reads as GRDB decodes it, NULLs, non-ASCII text and ids included")
    func agreesWithGRDB() throws {
        try withFile { queue in
            var generator = SystemRandomNumberGenerator()
            try queue.write { db in
                for n in 0..<500 {
                    let id: String? = n % 7 == 0 ? nil : (n % 11 == 0 ? "not an id" : UUID().uuidString.lowercased())
                    let count: Int64? = n % 5 == 0 ? nil : Int64.random(in: Int64.min...Int64.max, using: &generator)
                    let amount: Double? = n % 6 == 0 ? nil : Double.random(in: -1e12...1e12, using: &generator)
                    let text: String? = n % 9 == 0 ? nil : Self.texts[n % Self.texts.count]
                    try db.execute(sql: "INSERT INTO t (n, id, count, amount, text) VALUES (?, ?, ?, ?, ?)", arguments: [n, id, count, amount, text])
                }
            }
            try queue.read { db in
                let sql = "SELECT id, count, amount, text FROM t WHERE n >= ? ORDER BY n"
                let read = try db.cachedStatement(sql: sql).map(arguments: [0]) { columns in
                    Stored(id: columns.uuid(0), count: columns.optionalInt64(1), amount: columns.optionalDouble(2), text: columns.optionalText(3))
                }
                let reference = try Row.fetchAll(db, sql: sql, arguments: [0]).map { row in
                    Stored(id: (row[0] as String?).flatMap(UUID.init(uuidString:)), count: row[1], amount: row[2], text: row[3])
                }
                #expect(read.count == 500)
                #expect(read == reference)
                // The same cached statement again, with other arguments, starts from its first row.
                let again = try db.cachedStatement(sql: sql).map(arguments: [495]) { columns in columns.optionalInt64(1) }
                #expect(again == reference.suffix(5).map(\.count))
            }
        }
    }

    @Test("NULL reads as zero or empty where a value is asked for, and no rows is an empty list")
    func nullAndEmpty() throws {
        try withFile { queue in
            try queue.write { db in try db.execute(sql: "INSERT INTO t (n) VALUES (1)") }
            try queue.read { db in
                let values = try db.makeStatement(sql: "SELECT count, amount, text, id FROM t").map { columns in
                    (columns.int64(0), columns.double(1), columns.text(2), columns.isNull(3), columns.uuid(3))
                }
                #expect(values.count == 1)
                #expect(values[0].0 == 0 && values[0].1 == 0 && values[0].2 == "" && values[0].3 && values[0].4 == nil)
                #expect(try db.makeStatement(sql: "SELECT n FROM t WHERE n > 1").map { $0.int64(0) }.isEmpty)
            }
        }
    }

    private struct Stop: Error {}

    @Test("a read stopped by its closure leaves the cached statement ready for the next; wrong arguments are refused")
    func stoppedAndRefused() throws {
        try withFile { queue in
            try queue.write { db in for n in 1...10 { try db.execute(sql: "INSERT INTO t (n, count) VALUES (?, ?)", arguments: [n, n * 10]) } }
            let sql = "SELECT count FROM t WHERE n >= ? ORDER BY n"
            try queue.read { db in
                #expect(throws: Stop.self) {
                    try db.cachedStatement(sql: sql).map(arguments: [1]) { columns -> Int64 in
                        if columns.int64(0) == 30 { throw Stop() }
                        return columns.int64(0)
                    }
                }
                let later = try db.cachedStatement(sql: sql).map(arguments: [8]) { $0.int64(0) }
                #expect(later == [80, 90, 100])
                #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: sql).map(arguments: [1, 2]) { $0.int64(0) } }
            }
            // Nothing of the stopped read holds the file: a write goes through.
            try queue.write { db in try db.execute(sql: "DELETE FROM t WHERE n > 5") }
            let left = try queue.read { db in try db.makeStatement(sql: "SELECT count(*) FROM t").map { $0.int64(0) } }
            #expect(left == [5])
        }
    }

    @Test("parameters bound straight to SQLite select what GRDB's arguments select, on one cached statement taking turns")
    func boundParametersAgreeWithArguments() throws {
        try withFile { queue in
            try queue.write { db in
                for n in 0..<200 {
                    try db.execute(
                        sql: "INSERT INTO t (n, count, amount, text) VALUES (?, ?, ?, ?)",
                        arguments: [n, n % 17, Double(n) / 8, Self.texts[n % Self.texts.count]])
                }
            }
            let sql = "SELECT n FROM t WHERE count >= ? AND amount < ? AND text = ? ORDER BY n"
            try queue.read { db in
                for (count, amount, text) in [(Int64(3), 20.5, "plain"), (0, 1e9, "Zoë's café ☕️"), (16, 25.0, ""), (5, 0.1, "plain")] {
                    let bound = try db.cachedStatement(sql: sql).map(binding: { parameters in
                        parameters.bind(count)
                        parameters.bind(amount)
                        parameters.bind(text)
                    }) { $0.int64(0) }
                    let reference = try db.cachedStatement(sql: sql).map(arguments: [count, amount, text]) { $0.int64(0) }
                    #expect(bound == reference, "\(count) \(amount) \(text)")
                    #expect(!reference.isEmpty || amount < 1, "\(count) \(amount) \(text)")
                }
            }
        }
    }

    @Test("binding fewer or more values than the statement has parameters is refused, and the statement still runs afterwards")
    func wrongNumberOfParametersRefused() throws {
        try withFile { queue in
            try queue.write { db in for n in 1...3 { try db.execute(sql: "INSERT INTO t (n, count) VALUES (?, ?)", arguments: [n, n]) } }
            let sql = "SELECT count FROM t WHERE n >= ? AND n <= ? ORDER BY n"
            try queue.read { db in
                #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: sql).map(binding: { $0.bind(Int64(1)) }) { $0.int64(0) } }
                #expect(throws: DatabaseError.self) {
                    try db.cachedStatement(sql: sql).map(binding: { for _ in 0..<3 { $0.bind(Int64(1)) } }) { $0.int64(0) }
                }
                let all = try db.cachedStatement(sql: sql).map(binding: {
                    $0.bind(Int64(2)); $0.bind(Int64(3))
                }) { $0.int64(0) }
                #expect(all == [2, 3])
            }
        }
    }
}
