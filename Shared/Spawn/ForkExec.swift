import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starting a program: fork, set up the child with system calls only, exec.
///
/// Foundation's `Process.run()` in Swift 6.3 over-reads a `dirent` while it looks for the
/// highest open descriptor, and now and then crashes the parent with SIGSEGV
/// (swiftlang/swift-corelibs-foundation#5472). It also cannot set a parent-death signal.
public enum ForkExec {
    /// Where one of the child's standard streams comes from or goes to.
    public enum Stream: Sendable {
        /// The parent's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A file, created if need be; appended to (or, for stdin, read from the start).
        case file(String)
        /// A descriptor the caller owns and closes.
        case descriptor(Int32)
    }

    /// What to start and how.
    public struct Options: Sendable {
        public var executable: String
        public var arguments: [String]
        /// The child's whole environment; nil passes on the parent's.
        public var environment: [String: String]?
        public var stdin: Stream
        public var stdout: Stream
        public var stderr: Stream
        /// A signal the kernel sends the child when the thread that started it ends (Linux only).
        public var parentDeathSignal: Int32?

        public init(
            executable: String, arguments: [String] = [], environment: [String: String]? = nil,
            stdin: Stream = .null, stdout: Stream = .inherit, stderr: Stream = .inherit, parentDeathSignal: Int32? = nil
        ) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.stdin = stdin
            self.stdout = stdout
            self.stderr = stderr
            self.parentDeathSignal = parentDeathSignal
        }
    }

    /// Starts the program; returns its process id. Throws when it is not an executable file
    /// or a redirection cannot be opened. The child gets default signal handling, an empty
    /// signal mask and no descriptors but 0, 1 and 2.
    public static func start(_ options: Options) throws(SpawnError) -> pid_t {
        guard access(options.executable, X_OK) == 0 else {
            throw SpawnError(description: "cannot start \(options.executable): \(String(cString: strerror(errno)))")
        }
        // Everything the child needs is made before the fork: between fork and exec the child
        // may only make system calls, as another thread may have held a lock (malloc's too)
        // at the moment of the fork.
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func descriptor(_ stream: Stream, input: Bool) throws(SpawnError) -> Int32 {
            let path: String
            let flags: Int32
            switch stream {
            case .inherit: return -1
            case .descriptor(let descriptor): return descriptor
            case .null: (path, flags) = ("/dev/null", input ? O_RDONLY : O_WRONLY)
            case .file(let file): (path, flags) = (file, input ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND)
            }
            let descriptor = open(path, flags | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw SpawnError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
            opened.append(descriptor)
            return descriptor
        }
        // Plain values only: the child must not touch generic Swift code, whose metadata
        // lookups may take a lock that another thread held at the fork.
        let stdin = try descriptor(options.stdin, input: true)
        let stdout = try descriptor(options.stdout, input: false)
        let stderr = try descriptor(options.stderr, input: false)
        let argv = CStrings([options.executable] + options.arguments)
        let envp = CStrings((options.environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" })
        guard let file = argv.pointer[0] else { throw SpawnError(description: "out of memory") }
        let (argvPointer, envpPointer) = (argv.pointer, envp.pointer)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        let prctl = prctlFunction
        let closeRange = closeRangeFunction
        let deathSignal = UInt(options.parentDeathSignal ?? 0)
        let parent = getpid()

        let pid = fork()
        if pid == 0 {
            if deathSignal != 0 {
                _ = prctl?(1 /* PR_SET_PDEATHSIG */, deathSignal, 0, 0, 0)
                if getppid() != parent { _exit(1) } // the parent died before the signal was set
            }
            if stdin >= 0 { dup2(stdin, 0) }
            if stdout >= 0 { dup2(stdout, 1) }
            if stderr >= 0 { dup2(stderr, 2) }
            // Ignored signals stay ignored across exec, and servers ignore some to handle them themselves.
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            signal(SIGHUP, SIG_DFL)
            signal(SIGPIPE, SIG_DFL)
            sigprocmask(SIG_SETMASK, &emptyMask, nil)
            _ = closeRange?(3, UInt32.max, 0)
            execve(file, argvPointer, envpPointer)
            _exit(127)
        }
        // The strings are freed only now, after the child has its copy of them.
        withExtendedLifetime((argv, envp)) {}
        guard pid > 0 else { throw SpawnError(description: "cannot start \(options.executable): \(String(cString: strerror(errno)))") }
        return pid
    }
}

/// Why a program could not be started.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}

/// A NULL-terminated array of C strings, as exec takes them, freed with its owner.
private final class CStrings {
    let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    init(_ strings: [String]) {
        pointer = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointer[index] = strdup(string) }
        pointer[strings.count] = nil
    }

    deinit {
        var index = 0
        while let string = pointer[index] {
            free(string)
            index += 1
        }
        pointer.deallocate()
    }
}

// C functions that Swift does not import (prctl is variadic; close_range needs glibc 2.34),
// looked up once. On Linux a variadic C function takes integer arguments as a plain one does.
private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
private typealias CloseRangeFunction = @convention(c) (UInt32, UInt32, Int32) -> Int32
nonisolated(unsafe) private let process = dlopen(nil, RTLD_NOW)
private let prctlFunction: PrctlFunction? = dlsym(process, "prctl").map { unsafeBitCast($0, to: PrctlFunction.self) }
private let closeRangeFunction: CloseRangeFunction? = dlsym(process, "close_range").map { unsafeBitCast($0, to: CloseRangeFunction.self) }
