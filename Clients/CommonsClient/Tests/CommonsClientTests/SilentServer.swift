import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A TCP socket on 127.0.0.1 that takes connections and never answers: a request to it
/// waits until its timeout, unless it is cancelled. Closed when released.
final class SilentServer: Sendable {
    private let descriptor: Int32
    /// The port the system chose.
    let port: UInt16

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        (descriptor, port) = try Self.listening()
    }

    /// A socket listening on 127.0.0.1, on a port the system chose.
    static func listening() throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        // The connections wait in the backlog until accepted; a SilentServer never does.
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw Failure(description: "bind or listen: errno \(errno)")
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw Failure(description: "getsockname: errno \(errno)")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
