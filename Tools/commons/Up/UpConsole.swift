import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where `commons up` writes: its own lines and every child's, each line prefixed with
/// whose it is (`accounts | …`), the names padded to one width so the bars line up.
final class UpConsole: Sendable {
    enum Stream: Sendable {
        case standardOutput, standardError
    }

    /// The name on `commons up`'s own lines.
    static let ownName = "commons"

    private let width: Int
    // One line is written whole before the next, whoever writes it.
    private let writing = Mutex(())

    /// A console for lines from `names` (and `commons` itself).
    init(names: [String]) {
        width = (names + [Self.ownName]).map(\.count).max() ?? 0
    }

    /// Writes a line of `commons up`'s own to stdout.
    func say(_ line: String) {
        write(line, from: Self.ownName, to: .standardOutput)
    }

    /// Writes `line` as `name`'s.
    func write(_ line: String, from name: String, to stream: Stream) {
        let padding = String(repeating: " ", count: max(0, width - name.count))
        let text = Data("\(name)\(padding) | \(line)\n".utf8)
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        writing.withLock { _ in try? handle.write(contentsOf: text) }
    }

    /// Reads `descriptor` line by line until it ends, writing each line as `name`'s, then
    /// closes it. Returns when the last line is written.
    /// Returns the last line it relayed, if any.
    @discardableResult
    func relay(_ descriptor: Int32, from name: String, to stream: Stream) async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            // The reads block, so they get a thread of their own rather than one of the pool's.
            Thread.detachNewThread { [self] in
                let last = relayLines(descriptor, from: name, to: stream)
                close(descriptor)
                continuation.resume(returning: last)
            }
        }
    }

    private func relayLines(_ descriptor: Int32, from name: String, to stream: Stream) -> String? {
        let newline = UInt8(ascii: "\n")
        // A line longer than this is written in pieces rather than held without end.
        let longestLine = 64 * 1024
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var last: String?
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: chunk[..<count])
            while let end = pending.firstIndex(of: newline) ?? (pending.count >= longestLine ? pending.count : nil) {
                last = String(decoding: pending[..<end], as: UTF8.self)
                write(last ?? "", from: name, to: stream)
                pending.removeFirst(min(end + 1, pending.count))
            }
        }
        if !pending.isEmpty {
            last = String(decoding: pending, as: UTF8.self)
            write(last ?? "", from: name, to: stream)
        }
        return last
    }
}

/// Log events of `commons up`'s own parts (the gateway) as console lines: `gateway | warning: …`.
struct UpConsoleLogHandler: LogHandler {
    let console: UpConsole
    let name: String
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        console.write("\(event.level): \(event.message)\(details)", from: name, to: .standardError)
    }
}
