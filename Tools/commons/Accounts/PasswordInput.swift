import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A password read from stdin: the first line, without its line ending. On a terminal the
/// prompt goes to stderr and the typing is not echoed.
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if terminal {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line, !line.isEmpty else { throw ValidationError("--password-stdin: stdin held no password") }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}
