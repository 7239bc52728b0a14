import Foundation
import Logging
import PostgresNIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The CPU one event cost on each side of a measured stretch, in microseconds: the client
/// (this process, with the children it has waited for: the log and the driver run here,
/// pgbench is such a child) and the PostgreSQL cluster (its postmaster, backends and
/// helpers), when the cluster runs on this machine.
///
/// Unlike a rate, which on this 2-core machine swings by a third from run to run with the
/// disk's flush time, what a side costs per event moves little, so it shows where a gap
/// between the log and pgbench goes: to the client or to the server.
struct EventCPU: Sendable, Equatable {
    var client: Double
    var server: Double?
}

/// Adds up the CPU and the events of several measured stretches of one side of a case (its
/// rounds), and gives their CPU per event.
final class CPUTally: Sendable {
    private struct Totals {
        var client = 0.0
        var server: Double? = 0
        var events = 0
    }

    private let postmaster: pid_t?
    private let totals = Mutex(Totals())

    /// - Parameter postmaster: the cluster's postmaster (``PostgresCluster/postmaster(_:)``);
    ///   nil counts the client alone.
    init(postmaster: pid_t?) {
        self.postmaster = postmaster
        if postmaster == nil { totals.withLock { $0.server = nil } }
    }

    /// Runs `stretch`, which returns its rate and every event it handled (warm-up included:
    /// the CPU is counted from start to end), adds its CPU and events, and returns the rate.
    func measure(_ stretch: () async throws -> (rate: Double, events: Int)) async throws -> Double {
        let before = sample()
        let (rate, events) = try await stretch()
        let after = sample()
        totals.withLock { totals in
            totals.client += after.client - before.client
            if let server = after.server, let earlier = before.server { totals.server? += server - earlier } else { totals.server = nil }
            totals.events += events
        }
        return rate
    }

    /// How many events everything measured so far counted, warm-ups included.
    var events: Int { totals.withLock(\.events) }

    /// The CPU per event of everything measured so far; nil before any event.
    var perEvent: EventCPU? {
        totals.withLock { totals in
            guard totals.events > 0 else { return nil }
            let events = Double(totals.events)
            return EventCPU(client: totals.client * 1e6 / events, server: totals.server.map { $0 * 1e6 / events })
        }
    }

    private func sample() -> (client: Double, server: Double?) {
        (ProcessTreeCPU.seconds(under: getpid()) ?? 0, postmaster.flatMap(ProcessTreeCPU.seconds(under:)))
    }
}

/// The PostgreSQL cluster a connection reaches, as processes of this machine.
enum PostgresCluster {
    /// The postmaster of the cluster `connection` is connected to, when that cluster runs on
    /// this machine, else nil. The connection's backend is a child of the postmaster, and the
    /// postmaster's pid is the first line of `postmaster.pid` in the data directory; both
    /// must agree, so a server elsewhere (or in a container, whose pids mean other
    /// processes here) is never mistaken for a local one.
    static func postmaster(_ connection: PostgresConnection) async -> pid_t? {
        let query: PostgresQuery = "SELECT pg_backend_pid(), current_setting('data_directory')"
        guard let rows = try? await connection.query(query, logger: Logger(label: "commons.bench")) else { return nil }
        var answer: (Int32, String)?
        do {
            for try await row in rows.decode((Int32, String).self) { answer = row }
        } catch {
            return nil
        }
        guard let (backend, directory) = answer,
            let file = try? String(contentsOfFile: directory + "/postmaster.pid", encoding: .utf8)
        else { return nil }
        return matchingPostmaster(backend: backend, parent: ProcessTreeCPU.parent(of: backend), pidFile: file)
    }

    /// The postmaster named by `pidFile` (its first line) when it is `backend`'s parent.
    static func matchingPostmaster(backend: pid_t, parent: pid_t?, pidFile: String) -> pid_t? {
        guard let first = pidFile.split(separator: "\n", omittingEmptySubsequences: false).first,
            let named = pid_t(first.trimmingCharacters(in: .whitespaces)), named == parent
        else { return nil }
        return named
    }
}
