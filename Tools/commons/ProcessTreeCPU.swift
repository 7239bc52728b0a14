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
    static func seconds(under root: pid_t) -> Double? {
        let processes = snapshot()
        guard processes[root] != nil else { return nil }
        var total = 0.0
        var pending = [root]
        while let pid = pending.popLast() {
            guard let process = processes[pid] else { continue }
            total += process.seconds
            pending += process.children
        }
        return total
    }

    private struct Process {
        var parent: pid_t
        /// Its own CPU and that of its children it has waited for.
        var seconds: Double
        var children: [pid_t] = []
    }

    private static func snapshot() -> [pid_t: Process] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [:] }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var processes: [pid_t: Process] = [:]
        for entry in entries {
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the command's closing bracket: the parent is field 4; utime, stime,
            // cutime and cstime are fields 14 to 17.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 14, let parent = pid_t(fields[1]) else { continue }
            let used = fields[11...14].compactMap { Double($0) }.reduce(0, +)
            processes[pid] = Process(parent: parent, seconds: used / ticks)
        }
        for (pid, process) in processes { processes[process.parent]?.children.append(pid) }
        return processes
    }
}
