import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program started by ``ForkExec``, watched without blocking a thread: ask whether it
/// is running, signal it, wait for it by polling. Used where `Foundation.Process` was
/// (see ``ForkExec`` for why not that).
public final class SpawnedProcess: Sendable {
    public let processIdentifier: pid_t
    /// The program and its arguments, for messages.
    public let commandLine: [String]
    private let ended = Mutex<ExitStatus?>(nil)

    /// Starts `executable` with `arguments`; the environment is the parent's unless given.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        stdin: ForkExec.Stream = .null, stdout: ForkExec.Stream = .inherit, stderr: ForkExec.Stream = .inherit
    ) throws {
        processIdentifier = try ForkExec.start(
            .init(
                executable: executable, arguments: arguments, environment: environment,
                stdin: stdin, stdout: stdout, stderr: stderr))
        commandLine = [executable] + arguments
    }

    /// How it ended; nil while it runs. The first call after it ends reaps it.
    public var exitStatus: ExitStatus? {
        ended.withLock { ended in
            if ended == nil {
                var status: Int32 = 0
                switch waitpid(processIdentifier, &status, WNOHANG) {
                case 0: break
                case processIdentifier: ended = ExitStatus(waitStatus: status)
                default: if errno == ECHILD { ended = .exited(-1) } // reaped by someone else: it has ended
                }
            }
            return ended
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// The exit code, or the signal that killed it; -1 while it runs.
    public var terminationStatus: Int32 { exitStatus?.code ?? -1 }

    /// Sends `signal` unless it has ended (its id may belong to another process by then).
    public func send(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { _ = kill(processIdentifier, signal) }
        }
    }

    public func terminate() { send(SIGTERM) }
    public func interrupt() { send(SIGINT) }

    /// Waits until it ends, checking every `interval`.
    @discardableResult
    public func waitUntilExit(checkingEvery interval: Duration = .milliseconds(10)) async -> ExitStatus {
        while true {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: interval)
        }
    }

    /// Runs a program to its end and returns its status with what it wrote to stdout and stderr.
    public static func output(
        of executable: String, _ arguments: [String] = [], environment: [String: String]? = nil
    )
        async throws -> (status: ExitStatus, stdout: String, stderr: String)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (out, err) = (directory.appendingPathComponent("stdout").path, directory.appendingPathComponent("stderr").path)
        let process = try SpawnedProcess(executable, arguments, environment: environment, stdout: .file(out), stderr: .file(err))
        let status = await process.waitUntilExit()
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (status, read(out), read(err))
    }
}
