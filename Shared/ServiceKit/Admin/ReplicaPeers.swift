import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The replicas of a service, from `COMMONS_PEERS`: each base URL's host looked up anew, so
/// that a name which DNS answers with every replica (a compose service scaled up, a headless
/// Kubernetes Service) gives each of them, as they are now.
enum ReplicaPeers {
    /// Every address the hosts of `peers` name, as base URLs with their scheme and port, in
    /// order and once each. A host that cannot be looked up is left out.
    static func addresses(_ peers: [URL]) async -> [URL] {
        var found: [URL] = []
        for peer in peers {
            guard let host = peer.host else { continue }
            let hosts = await Task.detached { lookUp(host) }.value
            for address in hosts {
                var components = URLComponents(url: peer, resolvingAgainstBaseURL: false)
                components?.host = address.contains(":") ? "[\(address)]" : address
                if let url = components?.url, !found.contains(url) { found.append(url) }
            }
        }
        return found
    }

    /// The IPv4 and IPv6 addresses `host` names (itself, if it is an address).
    private static func lookUp(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(address) { addresses.append(address) }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
