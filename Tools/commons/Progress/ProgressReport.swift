import Foundation

/// Progress of long work on standard error (`events export|import`, `replay`, the `bench`
/// fills): on a terminal, one line redrawn in place with a bar, the rate and the time left;
/// otherwise (a log, a pipe) a plain line now and then, so that a log shows the work moving
/// without filling up with redraws. Work done within the first interval shows only the summary.
final class ProgressReport: @unchecked Sendable {
    /// What is counted, plural (`events`, `listings`).
    let unit: String
    private let label: String
    private let terminal: Bool
    private let start = ContinuousClock.now
    private let lock = NSLock()
    private var lastLine: ContinuousClock.Instant
    /// Whether the terminal's line holds a bar, for ``finish(done:)`` to clear.
    private var drawn = false
    private var counted = 0

    /// - Parameters:
    ///   - label: the command, starting each plain line (`commons replay`).
    ///   - terminal: whether standard error is a terminal (by default, `isatty`).
    init(_ label: String, unit: String = "events", terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.unit = unit
        self.terminal = terminal
        lastLine = start
    }

    /// Reports `done` so far and, when known, the `fraction` of the whole (0...1): at most five
    /// times a second on a terminal, every ten seconds otherwise.
    func report(done: Int, fraction: Double? = nil) {
        lock.withLock { draw(done: done, fraction: fraction) }
    }

    /// Counts `count` more done, of `total` when known (for work spread over tasks), and
    /// reports; returns the count so far.
    @discardableResult
    func advance(by count: Int, of total: Int? = nil) -> Int {
        lock.withLock {
            counted += count
            draw(done: counted, fraction: total.map { Double(counted) / Double(max($0, 1)) })
            return counted
        }
    }

    /// The count ``advance(by:of:)`` has reached.
    var done: Int { lock.withLock { counted } }

    /// Under the lock.
    private func draw(done: Int, fraction: Double?) {
        let now = ContinuousClock.now
        guard now - lastLine >= (terminal ? .milliseconds(200) : .seconds(10)) else { return }
        lastLine = now
        let text = Self.line(done: done, unit: unit, fraction: fraction, elapsed: Self.seconds(now - start), terminal: terminal)
        drawn = terminal
        FileHandle.standardError.write(Data((terminal ? "\r\(text)\u{1B}[K" : "\(label): \(text)\n").utf8))
    }

    /// Ends the report with the total and the average rate, on a line of its own.
    func finish(done: Int) {
        lock.withLock {
            let seconds = Self.seconds(ContinuousClock.now - start)
            let text = "\(label): \(done) \(unit) in \(Self.duration(seconds)) (\(Self.rate(done: done, elapsed: seconds)) \(unit)/s)"
            FileHandle.standardError.write(Data(((drawn ? "\r\u{1B}[K" : "") + text + "\n").utf8))
            drawn = false
        }
    }

    /// The line for `done` things of `unit` after `elapsed` seconds, `fraction` of the whole
    /// when known: for a terminal `[######              ]  30%  3000 events  1000 events/s  7 s left`,
    /// otherwise `3000 events (30%), 1000 events/s, about 7 s left`.
    static func line(done: Int, unit: String, fraction: Double?, elapsed: Double, terminal: Bool) -> String {
        let rate = "\(rate(done: done, elapsed: elapsed)) \(unit)/s"
        guard let fraction = fraction.map({ min(max($0, 0), 1) }) else {
            return terminal ? "\(done) \(unit)  \(rate)" : "\(done) \(unit), \(rate)"
        }
        let percent = Int((fraction * 100).rounded(.down))
        // Unknown until something is done; then the time so far, scaled to what remains.
        let left = fraction > 0 ? duration(elapsed * (1 - fraction) / fraction) : "?"
        guard terminal else { return "\(done) \(unit) (\(percent)%), \(rate), about \(left) left" }
        let width = 20
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let padded = String(repeating: " ", count: max(0, 3 - String(percent).count)) + "\(percent)%"
        return "[\(bar)] \(padded)  \(done) \(unit)  \(rate)  \(left) left"
    }

    /// Whole things a second; 0 before any time has passed.
    static func rate(done: Int, elapsed: Double) -> Int {
        elapsed > 0 ? Int((Double(done) / elapsed).rounded()) : 0
    }

    /// `42 s`, `3 min 5 s`, `2 h 10 min`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "over 100 h" }
        let whole = Int(seconds.rounded())
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3_600: return "\(whole / 60) min \(whole % 60) s"
        default: return "\(whole / 3_600) h \(whole % 3_600 / 60) min"
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
