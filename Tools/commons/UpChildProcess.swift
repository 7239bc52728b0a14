import Foundation
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

/// How a child process ended.
enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(signal: Int32)

    init(waitStatus: Int32) {
        // WIFEXITED, WEXITSTATUS and WTERMSIG are C macros, which Swift does not import.
        let signal = waitStatus & 0x7F
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xFF) : .killed(signal: signal)
    }

    var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .killed(let signal): "was killed by \(signalName(signal))"
        }
    }
}

/// `SIGTERM` for 15, and so on for the signals a child is likely to die of.
func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGHUP: "SIGHUP"
    case SIGINT: "SIGINT"
    case SIGQUIT: "SIGQUIT"
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGBUS: "SIGBUS"
    case SIGFPE: "SIGFPE"
    case SIGKILL: "SIGKILL"
    case SIGSEGV: "SIGSEGV"
    case SIGPIPE: "SIGPIPE"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
}

struct SpawnError: Error, CustomStringConvertible {
    let description: String
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

// C functions that Swift does not import (prctl is variadic; close_range needs glibc 2.34),
// looked up once. On Linux a variadic C function takes integer arguments as a plain one does.
private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
private typealias CloseRangeFunction = @convention(c) (UInt32, UInt32, Int32) -> Int32
private let prctlFunction: PrctlFunction? = dlsym(dlopen(nil, RTLD_NOW), "prctl").map { unsafeBitCast($0, to: PrctlFunction.self) }
private let closeRangeFunction: CloseRangeFunction? = dlsym(dlopen(nil, RTLD_NOW), "close_range").map { unsafeBitCast($0, to: CloseRangeFunction.self) }
private let PR_SET_PDEATHSIG: Int32 = 1

/// Forks and execs `executable`. Foundation's `Process` cannot set the parent-death
/// signal, which has to happen in the child between fork and exec.
private func forkAndExec(executable: String, environment: [String: String]) throws -> ChildProcess {
    let stdout = try cloexecPipe()
    let stderr = try cloexecPipe()
    let devNull = open("/dev/null", O_RDONLY)
    // Everything the child needs is made before the fork: between fork and exec the child
    // may only make system calls, as another thread may have held a lock (malloc's too)
    // at the moment of the fork.
    guard let path = strdup(executable) else { throw SpawnError(description: "out of memory") }
    let argv = cStringArray([executable])
    let envp = cStringArray(environment.map { "\($0.key)=\($0.value)" })
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    let prctl = prctlFunction
    let closeRange = closeRangeFunction
    let parent = getpid()
    defer {
        free(path)
        freeCStringArray(argv)
        freeCStringArray(envp)
        close(devNull)
        close(stdout.write)
        close(stderr.write)
    }

    let pid = fork()
    if pid == 0 {
        _ = prctl?(PR_SET_PDEATHSIG, UInt(SIGTERM), 0, 0, 0)
        if getppid() != parent { _exit(1) }  // commons died before the signal was set
        dup2(devNull, 0)
        dup2(stdout.write, 1)
        dup2(stderr.write, 2)
        // Ignored signals stay ignored across exec, and commons ignores these to handle them itself.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        signal(SIGPIPE, SIG_DFL)
        sigprocmask(SIG_SETMASK, &emptyMask, nil)
        _ = closeRange?(3, UInt32.max, 0)
        execve(path, argv, envp)
        _exit(127)
    }
    guard pid > 0 else {
        close(stdout.read)
        close(stderr.read)
        throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(errno)))")
    }
    return ChildProcess(pid: pid, stdout: stdout.read, stderr: stderr.read)
}

/// A pipe whose ends are closed in children on exec (the child's copies from dup2 are not).
private func cloexecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SpawnError(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    return (ends[0], ends[1])
}

/// A NULL-terminated array of C strings, as exec takes them; free it with ``freeCStringArray(_:)``.
private func cStringArray(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
    let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { array[index] = strdup(string) }
    array[strings.count] = nil
    return array
}

private func freeCStringArray(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
    var index = 0
    while let string = array[index] {
        free(string)
        index += 1
    }
    array.deallocate()
}
