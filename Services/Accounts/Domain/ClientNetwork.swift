import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network a client address belongs to, as sign-in lockouts tell clients apart: an IPv4
/// address's /24 and an IPv6 address's /64, what one household, office or phone is given.
/// Anything else (`local`, a name) stands for itself.
public enum ClientNetwork {
    public static func of(_ address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { bytes in bytes.prefix(3).map(String.init).joined(separator: ".") + ".0/24" }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in
                // An IPv4 client on a dual-stack socket (`::ffff:a.b.c.d`) is an IPv4 client.
                if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                    return bytes[12..<15].map(String.init).joined(separator: ".") + ".0/24"
                }
                let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                return groups.joined(separator: ":") + "::/64"
            }
        }
        return address
    }
}
