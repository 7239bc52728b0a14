// A projector process for the crash test: it follows an SQLite event log into a read
// model and, if asked, stops inside a page for the test to kill it with SIGKILL mid-batch.
//
//   commons-test-projector follow EVENTS READMODEL_DIR [--block-at N] [--page-size N] [--until-caught-up]
//   commons-test-projector replay EVENTS FILE
//
// --block-at N: on applying the event whose `n` is N, inside its page's transaction, it
// creates READMODEL_DIR/blocked-N and waits there for ever.
import EventLog
import EventLogSQLite
import Foundation
import GRDB
import Logging
import ReadModel

/// Per stream: how many events and the sum of their `n`. Applying an event twice, or
/// losing one, changes the totals.
struct TallyProjection: Projection {
    let name = "tally"
    let filter = EventFilter.all
    /// The `n` to stop at, and the file that says it has (see --block-at).
    var blockAt: (n: Int, marker: String)?

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("tally-v1") { db in
            try db.execute(sql: "CREATE TABLE tallies (stream TEXT PRIMARY KEY, events INTEGER NOT NULL, total INTEGER NOT NULL)")
        }
    }

    func apply(_ event: RecordedEvent, in db: Database) throws {
        let body = try JSONSerialization.jsonObject(with: event.data) as? [String: Int]
        try db.execute(
            sql: """
                INSERT INTO tallies (stream, events, total) VALUES (?, 1, ?)
                ON CONFLICT (stream) DO UPDATE SET events = events + 1, total = total + excluded.total
                """, arguments: [event.stream, body?["n"] ?? 0])
        if let blockAt, body?["n"] == blockAt.n {
            _ = FileManager.default.createFile(atPath: blockAt.marker, contents: nil)
            while true { sleep(3_600) }
        }
    }
}

func option(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[index + 1]
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: commons-test-projector follow|replay EVENTS TARGET [options]\n".utf8))
    exit(64)
}
let store = try SQLiteEventStore(path: arguments[2], pollInterval: .milliseconds(50))
let projection = TallyProjection(blockAt: option("--block-at").flatMap(Int.init).map { ($0, arguments[3] + "/blocked-\($0)") })

switch arguments[1] {
case "replay":
    try await ReadModelRebuild.rebuild(projections: [projection], from: store, into: arguments[3])
case "follow":
    let database = try ReadModelDatabase(directory: URL(fileURLWithPath: arguments[3]), name: "tally", projections: [projection])
    let runner = ProjectionRunner(
        store: store, database: database, projection: projection, pageSize: Int(option("--page-size") ?? "100") ?? 100,
        logger: Logger(label: "test-projector"))
    let running = Task { try await runner.run() }
    let head = try await store.head()
    if arguments.contains("--until-caught-up") {
        _ = await runner.waitUntilApplied(head, timeout: .seconds(60))
        running.cancel()
    }
    try await running.value
default:
    exit(64)
}
