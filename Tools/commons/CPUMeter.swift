import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The CPU time each part of a topology spends on a post, over a timed stretch: where a
/// post's cost goes when the machine, not a wait, is what bounds the posts a second.
struct CPUMeter {
    /// CPU milliseconds per post, by part; empty where `/proc` is not there.
    typealias PerPost = [String: Double]

    private let processes: [String: pid_t]
    private let started: [String: Double]
    private let clock = ContinuousClock()
    private let startedAt: ContinuousClock.Instant

    /// Starts counting for `processes` (``Topology/processesToMeasure()``, each with the
    /// processes under it) and for this process on its own.
    init(_ processes: [String: pid_t]) {
        self.processes = processes
        startedAt = clock.now
        started = Self.seconds(processes)
    }

    /// Each part's CPU since the start, per post, in milliseconds, and `cores`: how many
    /// cores the parts kept busy together.
    func perPost(_ posts: Int) -> PerPost {
        let now = Self.seconds(processes)
        let elapsed = (clock.now - startedAt) / .seconds(1)
        var parts: PerPost = [:]
        for (name, seconds) in now {
            guard let before = started[name] else { continue }
            parts[Self.part(name), default: 0] += (seconds - before) * 1000 / Double(max(posts, 1))
        }
        guard !parts.isEmpty, elapsed > 0 else { return [:] }
        parts["cores"] = parts.values.reduce(0, +) * Double(posts) / 1000 / elapsed
        return parts
    }

    /// The table of both stretches, one row a part.
    static func report(alone: PerPost, loaded: PerPost, writers: Int) -> String {
        guard !alone.isEmpty || !loaded.isEmpty else { return "(CPU per post: no /proc here)" }
        func cell(_ table: PerPost, _ part: String) -> String {
            table[part].map { String(format: "%8.2f", $0) } ?? "       -"
        }
        var lines = ["CPU per post (ms, each part's processes over the timed posts)  alone  beside \(writers) writers"]
        for part in order {
            lines.append(part.padding(toLength: 58, withPad: " ", startingAt: 0) + cell(alone, part) + "   " + cell(loaded, part))
        }
        let total = { (table: PerPost) in table.filter { $0.key != "cores" }.values.reduce(0, +) }
        lines.append("all of them".padding(toLength: 58, withPad: " ", startingAt: 0)
                     + String(format: "%8.2f   %8.2f", total(alone), total(loaded)))
        lines.append("cores they kept busy together".padding(toLength: 58, withPad: " ", startingAt: 0)
                     + cell(alone, "cores") + "   " + cell(loaded, "cores"))
        return lines.joined(separator: "\n")
    }

    private static let order = ["listings", "geo-search", "the other services", "PostgreSQL", "nginx", "this client"]

    private static func part(_ name: String) -> String {
        switch name {
        case "listings", "geo-search", "PostgreSQL", "this client": name
        case "gateway": "nginx"
        default: "the other services"
        }
    }

    private static func seconds(_ processes: [String: pid_t]) -> [String: Double] {
        var seconds: [String: Double] = [:]
        for (name, pid) in processes { seconds[name] = ProcessTreeCPU.seconds(under: pid) }
        // This process alone: the services and nginx are its children.
        seconds["this client"] = Bench.cpuSeconds(of: getpid())
        return seconds
    }
}
