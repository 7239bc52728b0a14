import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small shell that outlives a crash of this process: once a second it looks at this
/// process in /proc (so it needs no `ps`), and when it is gone, or a zombie its parent has
/// not reaped yet, it kills every process whose id is listed in `pidsFile` and removes
/// `directory`. It ends by itself, doing nothing, as soon as none of those processes is
/// left. For tests that start servers, so that a crashed test run leaves none behind.
public enum OrphanWatchdog {
    /// Starts a watchdog over the process ids in `pidsFile` (one per line; the caller keeps
    /// the file up to date) that acts when `parent` (this process unless given) is gone.
    /// It is a `SpawnedProcess` of its own: terminate it when done.
    public static func start(pidsFile: String, removing directory: String? = nil, parent: pid_t = getpid()) throws -> SpawnedProcess {
        let script = """
            while stat=$(cat /proc/\(parent)/stat 2>/dev/null) && state=${stat##*) } && [ "${state%% *}" != Z ]; do
              sleep 1
              alive=
              for pid in $(cat "$1" 2>/dev/null); do kill -0 "$pid" 2>/dev/null && alive=1; done
              [ -n "$alive" ] || [ ! -s "$1" ] || exit 0
            done
            for pid in $(cat "$1" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
            [ -z "$2" ] || rm -rf "$2"
            """
        return try SpawnedProcess("/bin/sh", ["-c", script, "watchdog", pidsFile, directory ?? ""])
    }
}
