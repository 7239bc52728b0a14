import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time each part of a topology spends on a post, over a timed stretch: where a
/// post's cost goes when the machine, not a wait, is what bounds the posts a second.
struct CPUMeter {
    /// What a stretch cost: CPU milliseconds per post by part, and how many cores the parts
    /// kept busy together. Empty where `/proc` is not there.
    struct PerPost {
        var milliseconds: [String: Double] = [:]
        var cores = 0.0
    }

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

    /// What the stretch since the start cost, over `posts` posts.
    func perPost(_ posts: Int) -> PerPost {
        let now = Self.seconds(processes)
        let elapsed = (clock.now - startedAt) / .seconds(1)
        var cost = PerPost()
        var busy = 0.0
        for (name, seconds) in now {
            guard let before = started[name] else { continue }
            busy += seconds - before
            cost.milliseconds[Self.part(name), default: 0] += (seconds - before) * 1000 / Double(max(posts, 1))
        }
        if elapsed > 0 { cost.cores = busy / elapsed }
        return cost
    }

    /// The table of both stretches, one row a part.
    static func report(alone: PerPost, loaded: PerPost, writers: Int) -> String {
        guard !alone.milliseconds.isEmpty || !loaded.milliseconds.isEmpty else { return "(CPU per post: no /proc here)" }
        func row(_ name: String, _ alone: Double?, _ loaded: Double?) -> String {
            func cell(_ value: Double?) -> String { value.map { String(format: "%8.2f", $0) } ?? "       -" }
            return name.padding(toLength: 58, withPad: " ", startingAt: 0) + cell(alone) + "   " + cell(loaded)
        }
        var lines = ["CPU per post (ms, each part's processes over the timed posts)  alone  beside \(writers) writers"]
        for part in order { lines.append(row(part, alone.milliseconds[part], loaded.milliseconds[part])) }
        lines.append(row("all of them", alone.milliseconds.values.reduce(0, +), loaded.milliseconds.values.reduce(0, +)))
        lines.append(row("cores they kept busy together", alone.cores, loaded.cores))
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
