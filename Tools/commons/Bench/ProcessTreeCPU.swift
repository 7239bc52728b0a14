import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time of whole process trees, from Linux's `/proc`: a PostgreSQL cluster is a
/// postmaster and its backends, nginx a master and its workers.
enum ProcessTreeCPU {
    /// Seconds of CPU (user and system) used so far by `root` and every process under it,
    /// counting children that have already exited and been waited for; nil when `root` is
    /// gone or there is no `/proc`.
    ///
    /// The processes are read one after another, and waiting for a child moves its CPU into
    /// its parent's count: a child its parent waits for after the parent was read, and before
    /// the child itself would be, counts in neither (a PostgreSQL backend ending during a
    /// sample once made a cluster's CPU go backwards by 30 ms). So the tree is read again
    /// while any of its processes' count of waited-for children changed after it was read
    /// (at most five times). The other order can count a child twice, which only raises the figure.
    static func seconds(under root: pid_t) -> Double? {
        var total: Double?
        for _ in 0..<5 {
            let processes = snapshot()
            guard processes[root] != nil else { return nil }
            var tree: [pid_t] = []
            var pending = [root]
            while let pid = pending.popLast() {
                guard let process = processes[pid] else { continue }
                tree.append(pid)
                pending += process.children
            }
            total = tree.reduce(0) { $0 + processes[$1]!.seconds }
            let waitedMeanwhile = tree.contains { pid in stat(of: pid).map { $0.waitedFor != processes[pid]!.waitedFor } ?? false }
            if !waitedMeanwhile { break }
        }
        return total
    }

    /// Seconds of CPU (user and system) that `pid` itself has used so far, its children
    /// apart; nil when it is gone or there is no `/proc`.
    static func ownSeconds(of pid: pid_t) -> Double? {
        stat(of: pid).map(\.own)
    }

    /// The parent of `pid`; nil when it is gone or there is no `/proc`.
    static func parent(of pid: pid_t) -> pid_t? {
        stat(of: pid).map(\.parent)
    }

    private struct Process {
        var parent: pid_t
        /// Its own CPU and that of its children it has waited for.
        var seconds: Double
        /// The CPU of the children it has waited for (part of ``seconds``).
        var waitedFor: Double
        var children: [pid_t] = []
    }

    /// What `/proc/<pid>/stat` says of a process: its parent, its own CPU seconds, and those
    /// of the children it has waited for.
    private static func stat(of pid: pid_t) -> (parent: pid_t, own: Double, waitedFor: Double)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing bracket: the parent is field 4; utime, stime,
        // cutime and cstime are fields 14 to 17.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 14, let parent = pid_t(fields[1]),
            let user = Double(fields[11]), let system = Double(fields[12]),
            let childrenUser = Double(fields[13]), let childrenSystem = Double(fields[14])
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (parent, (user + system) / ticks, (childrenUser + childrenSystem) / ticks)
    }

    private static func snapshot() -> [pid_t: Process] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [:] }
        var processes: [pid_t: Process] = [:]
        for entry in entries {
            guard let pid = pid_t(entry), let stat = stat(of: pid) else { continue }
            processes[pid] = Process(parent: stat.parent, seconds: stat.own + stat.waitedFor, waitedFor: stat.waitedFor)
        }
        for (pid, process) in processes { processes[process.parent]?.children.append(pid) }
        return processes
    }
}
