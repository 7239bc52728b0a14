#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(signal: Int32)

    /// The status `waitpid` reported.
    public init(waitStatus: Int32) {
        // WIFEXITED, WEXITSTATUS and WTERMSIG are C macros, which Swift does not import.
        let signal = waitStatus & 0x7F
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// The exit code, or the number of the signal that killed it (as Foundation's
    /// `Process.terminationStatus`).
    public var code: Int32 {
        switch self {
        case .exited(let status): status
        case .killed(let signal): signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .killed(let signal): "was killed by \(signalName(signal))"
        }
    }
}

/// `SIGTERM` for 15, and so on for the signals a child is likely to die of.
public func signalName(_ signal: Int32) -> String {
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
