import EventLog
import EventLogTestSupport
import Foundation
import Spawn
import Testing

/// What one run of the `commons` binary did.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The lines of stdout.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// The `commons` binary, built beside this test bundle.
let commonsExecutable: URL = {
    let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("commons")
}()

/// A fresh empty directory for one test.
func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A running `commons` process whose output goes to files, so a test can look at it while it runs.
struct CommonsProcess {
    let process: SpawnedProcess
    let stdoutFile: URL
    let stderrFile: URL
    /// Kills the process if this test run crashes first (a `commons up` would otherwise keep its stack running).
    private let watchdog: SpawnedProcess

    /// Starts `commons arguments…` with `log` as `COMMONS_EVENT_STORE` and an empty `COMMONS_DATA_DIR`
    /// unless `environment` says otherwise.
    init(_ arguments: [String], log: TestLog?, stdin: Data? = nil, environment: [String: String] = [:]) throws {
        let directory = try scratchDirectory()
        stdoutFile = directory.appendingPathComponent("stdout")
        stderrFile = directory.appendingPathComponent("stderr")
        var values = ProcessInfo.processInfo.environment
        values["COMMONS_EVENT_STORE"] = log?.eventStoreValue
        values.merge(log?.serviceEnvironment ?? [:]) { _, new in new }
        values["COMMONS_DATA_DIR"] = directory.appendingPathComponent("data").path
        values.merge(environment) { _, new in new }
        var input = ForkExec.Stream.null
        if let stdin {
            let file = directory.appendingPathComponent("stdin")
            try stdin.write(to: file)
            input = .file(file.path)
        }
        process = try SpawnedProcess(
            commonsExecutable.path, arguments, environment: values, stdin: input,
            stdout: .file(stdoutFile.path), stderr: .file(stderrFile.path))
        let pids = directory.appendingPathComponent("pids")
        try String(process.processIdentifier).write(to: pids, atomically: true, encoding: .utf8)
        watchdog = try OrphanWatchdog.start(pidsFile: pids.path)
    }

    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Waits until `condition` holds for stdout; false after `timeout`.
    func waitForOutput(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition(stdout)
    }

    /// Waits for the process to exit (killing it after `timeout`) and returns what it did.
    func finish(timeout: Duration = .seconds(120)) async throws -> CommandResult {
        let deadline = ContinuousClock.now + timeout
        // Polling keeps the test's threads free; waitUntilExit would block one.
        var terminated = false
        while process.isRunning {
            if !terminated, ContinuousClock.now > deadline {
                process.terminate()
                terminated = true
                Issue.record("\(process.commandLine) did not exit within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        watchdog.terminate()
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// Runs `commons arguments…` on `log` to the end.
func commons(_ arguments: String..., log: TestLog?, stdin: Data? = nil, environment: [String: String] = [:]) async throws -> CommandResult {
    try await CommonsProcess(arguments, log: log, stdin: stdin, environment: environment).finish()
}

/// Appends `events` to `stream`, then waits until global readers see them: on PostgreSQL
/// another test's open transaction can hold the visibility horizon back for a moment, and
/// a `commons` process started before then would not see the batch yet.
@discardableResult
func appendVisibly(_ log: TestLog, to stream: String, _ events: [NewEvent]) async throws -> AppendResult {
    let result = try await log.store.append(to: stream, expected: .any, events: events)
    let deadline = ContinuousClock.now + .seconds(30)
    while try await log.store.head() < result.checkpoint {
        guard ContinuousClock.now < deadline else { throw TestSetupError("appended events did not become visible within 30 s") }
        try await Task.sleep(for: .milliseconds(10))
    }
    return result
}

/// Appends one small test event (type `Tested`, body `{"n": n}`) to each stream, in order;
/// returns the whole log.
@discardableResult
func appendTestEvents(_ log: TestLog, streams: [String]) async throws -> [RecordedEvent] {
    for (n, stream) in streams.enumerated() {
        try await appendVisibly(log, to: stream, [testEvent("Tested", ["n": n])])
    }
    return try await allEvents(log.store)
}

/// The whole log once readers can see at least `count` events (after another process appended them).
func allEvents(_ store: any EventStore, atLeast count: Int) async throws -> [RecordedEvent] {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
        let events = try await allEvents(store)
        if events.count >= count || ContinuousClock.now > deadline { return events }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// The whole log in global order, as far as readers can see it.
func allEvents(_ store: any EventStore) async throws -> [RecordedEvent] {
    try await store.readAll(after: .start, limit: 100_000, filter: .all).events
}
