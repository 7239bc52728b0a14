import Foundation
import Spawn
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("orphan watchdog")
struct OrphanWatchdogTests {
    /// Waits up to `timeout` for `condition`: the watchdog looks once a second, and a loaded
    /// machine may take several to start it.
    private func eventually(_ timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("when the watched parent dies, the listed processes are killed and the directory removed")
    func killsOrphans() async throws {
        let directory = try scratchDirectory()
        let parent = try SpawnedProcess("/bin/sleep", ["60"])
        let child = try SpawnedProcess("/bin/sleep", ["60"])
        let pids = directory.appendingPathComponent("pids")
        try String(child.processIdentifier).write(to: pids, atomically: true, encoding: .utf8)
        let watchdog = try OrphanWatchdog.start(pidsFile: pids.path, removing: directory.path, parent: parent.processIdentifier)
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(child.isRunning, "nothing happens while the parent lives")
        parent.send(SIGKILL) // left a zombie until reaped: the watchdog counts that as gone
        #expect(try await eventually { !child.isRunning })
        #expect(child.exitStatus == .killed(signal: SIGKILL))
        #expect(try await eventually { !FileManager.default.fileExists(atPath: directory.path) })
        #expect(try await eventually { !watchdog.isRunning })
    }

    @Test("once the listed processes have ended, the watchdog ends by itself")
    func endsWithItsProcesses() async throws {
        let directory = try scratchDirectory()
        let child = try SpawnedProcess("/bin/sleep", ["60"])
        let pids = directory.appendingPathComponent("pids")
        try String(child.processIdentifier).write(to: pids, atomically: true, encoding: .utf8)
        let watchdog = try OrphanWatchdog.start(pidsFile: pids.path, removing: directory.path)
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(watchdog.isRunning)
        child.terminate()
        #expect(try await eventually { !child.isRunning })
        #expect(try await eventually { !watchdog.isRunning })
        #expect(watchdog.exitStatus == .exited(0))
        #expect(FileManager.default.fileExists(atPath: directory.path), "the directory is removed only for a dead parent")
    }
}
