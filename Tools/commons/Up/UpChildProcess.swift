import Foundation
import Spawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of `commons up`, with its stdout and stderr coming through pipes.
///
/// Children stay in `commons`'s process group, so a Ctrl-C in the terminal reaches them
/// too, and get SIGTERM from the kernel when `commons` ends, even by SIGKILL, so none
/// is left behind.
struct ChildProcess: Sendable {
    let pid: pid_t
    /// The read ends of the child's stdout and stderr; whoever reads them closes them.
    let stdout: Int32
    let stderr: Int32

    /// Starts `executable` with exactly `environment`, stdin from /dev/null.
    static func spawn(executable: String, environment: [String: String]) async throws -> ChildProcess {
        try await SpawnThread.shared.run { try forkAndExec(executable: executable, environment: environment) }
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits until the child has exited and reaps it.
    func waitForExit() async -> ExitStatus {
        let pid = pid
        return await withCheckedContinuation { continuation in
            // waitpid blocks, so it gets a thread of its own rather than one of the pool's.
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                continuation.resume(returning: ExitStatus(waitStatus: status))
            }
        }
    }
}

/// The thread that forks every child.
///
/// The kernel sends the parent-death signal when the *thread* that forked a child ends,
/// not the process, and the threads of the concurrency pool may come and go; this one
/// lives as long as `commons`.
private final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        Thread.detachNewThread { [self] in
            while true {
                wake.wait()
                jobs.withLock { $0.removeFirst() }()
            }
        }
    }

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(with: Result { try work() }) } }
            wake.signal()
        }
    }
}

/// Starts `executable` with its stdout and stderr into pipes, and SIGTERM as its
/// parent-death signal (which Foundation's `Process` cannot set).
private func forkAndExec(executable: String, environment: [String: String]) throws -> ChildProcess {
    let stdout = try cloexecPipe()
    let stderr = try cloexecPipe()
    defer {
        close(stdout.write)
        close(stderr.write)
    }
    do {
        let pid = try ForkExec.start(
            .init(
                executable: executable, environment: environment, stdin: .null,
                stdout: .descriptor(stdout.write), stderr: .descriptor(stderr.write),
                parentDeathSignal: SIGTERM))
        return ChildProcess(pid: pid, stdout: stdout.read, stderr: stderr.read)
    } catch {
        close(stdout.read)
        close(stderr.read)
        throw error
    }
}

/// A pipe whose ends are closed in children on exec (the child's copies from dup2 are not).
private func cloexecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SpawnError(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    return (ends[0], ends[1])
}
