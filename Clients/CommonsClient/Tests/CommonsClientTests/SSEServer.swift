import Foundation

@testable import CommonsClient

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An HTTP server on 127.0.0.1 that answers every request with a `text/event-stream` (chunked)
/// and plays one script per connection, in the order they come: it writes, cuts the
/// connection, ends the response, or holds it open until the client goes. It writes down
/// each request's headers and each connection the client closed. Stopped when released.
final class SSEServer: Sendable {
    enum Step: Sendable {
        /// Writes text as one chunk.
        case send(String)
        /// Writes nothing for a while.
        case pause(Duration)
        /// Closes the connection in the middle of the body, as a network failure would.
        case cut
        /// Ends the body properly and closes, as a server that ends the stream does.
        case end
        /// Keeps the connection open until the client closes it.
        case hold
    }

    /// A request as received: header names lowercased.
    struct Request: Sendable {
        var line: String
        var headers: [String: String]
    }

    private struct Record: Sendable {
        var scripts: [[Step]]
        var requests: [Request] = []
        var closedByClient = 0
    }

    let port: UInt16
    private let listener: Int32
    private let record: Locked<Record>

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var requests: [Request] { record.withLock { $0.requests } }
    /// Connections on `.hold` that the client closed.
    var closedByClient: Int { record.withLock { $0.closedByClient } }

    /// `scripts[n]` is played on the n-th connection; later ones hold.
    init(_ scripts: [[Step]]) throws {
        let silent = try SilentServer.listening()
        listener = silent.descriptor
        port = silent.port
        let record = Locked(Record(scripts: scripts))
        self.record = record
        let listener = listener
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread { Self.serve(connection, record) }
            }
        }
    }

    deinit {
        // Wakes the accepting thread, which then ends.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ connection: Int32, _ record: Locked<Record>) {
        defer { close(connection) }
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard let request = readHead(connection) else { return }
        let script = record.withLock { record in
            record.requests.append(request)
            return record.scripts.isEmpty ? [.hold] : record.scripts.removeFirst()
        }
        write(
            connection,
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n"
                + "X-Content-Type-Options: nosniff\r\nTransfer-Encoding: chunked\r\n\r\n")
        for step in script {
            switch step {
            case .send(let text): write(connection, String(Data(text.utf8).count, radix: 16) + "\r\n" + text + "\r\n")
            case .pause(let duration):
                Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            case .cut: return
            case .end:
                write(connection, "0\r\n\r\n")
                return
            case .hold:
                var byte: UInt8 = 0
                while recv(connection, &byte, 1, 0) > 0 {}
                record.withLock { $0.closedByClient += 1 }
                return
            }
        }
    }

    /// Reads up to the blank line that ends the request's head.
    private static func readHead(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !bytes.ends(with: Array("\r\n\r\n".utf8)) {
            guard recv(connection, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(line: lines.first ?? "", headers: headers)
    }

    private static func write(_ connection: Int32, _ text: String) {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            // A client that went away must not end the test process with SIGPIPE.
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            guard written > 0 else { return }
            sent += written
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
