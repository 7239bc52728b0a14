import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ports for the servers tests start (services, gateways, PostgreSQL clusters).
///
/// They are picked at random *below* the kernel's ephemeral range
/// (`/proc/sys/net/ipv4/ip_local_port_range`, 32768–60999 by default). A port the kernel
/// hands out for `bind(0)` lies in that range, and so does the local end of every outgoing
/// connection: between our check and the server's own bind, any connection to PostgreSQL
/// could take it (seen as a replica failing to start with EADDRINUSE). Below the range only
/// another pick can, and no port is handed out twice in one process.
public enum FreePorts {
    private static let handedOut = Mutex<Set<Int>>([])

    /// A port on 127.0.0.1 that nothing listens on now.
    public static func pick() throws -> Int {
        try offset(for: [0])
    }

    /// An offset such that every one of `ports` plus it is free (for `--port-offset`).
    public static func offset(for ports: [Int]) throws -> Int {
        let highest = ports.max() ?? 0
        let lowest = ports.min() ?? 0
        let range = (10_000 - lowest)...(ephemeralStart - 1 - highest)
        for _ in 0..<200 {
            let offset = Int.random(in: range)
            let chosen = ports.map { $0 + offset }
            let claimed = handedOut.withLock { handedOut in
                guard chosen.allSatisfy({ !handedOut.contains($0) && isFree($0) }) else { return false }
                handedOut.formUnion(chosen)
                return true
            }
            if claimed { return offset }
        }
        throw TestSetupError("found no free ports for \(ports) below \(ephemeralStart)")
    }

    /// Whether `port` on 127.0.0.1 can be bound now.
    public static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// The first port of the kernel's ephemeral range.
    private static let ephemeralStart: Int = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let first = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        return max(first, 20_000)
    }()
}
