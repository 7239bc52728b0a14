import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that sends a command and leaves before its answer, as a phone losing its signal does.
@Suite("a client that leaves before its answer")
struct ClientDepartureCommandTests {
    @Test("the command is done exactly once, and its Idempotency-Key then answers as if the client had waited", arguments: Backend.allCases)
    func leavesThenRetries(backend: Backend) async throws {
        let kit = try await KitHarness(backend: backend)
        let token = try await kit.token()
        try await kit.test(.live) { client, runtime, _ in
            let port = try #require(client.port)
            var answered: [String] = []
            for n in 0..<8 {
                let key = UUID().uuidString
                let body = #"{"name":"left \#(n)","count":1}"#
                try Self.sendAndLeave(
                    port: port,
                    "POST /v1/widgets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                        + "Idempotency-Key: \(key)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                // The app tries again with the same key until it has the answer; 409 while the
                // first request still holds the key.
                let deadline = ContinuousClock.now + .seconds(60)
                var answer = try await client.execute(
                    uri: "/v1/widgets", method: .post, headers: .json(token: token, [.idempotencyKey: key]), body: ByteBuffer(string: body))
                while answer.status == .conflict, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    answer = try await client.execute(
                        uri: "/v1/widgets", method: .post, headers: .json(token: token, [.idempotencyKey: key]), body: ByteBuffer(string: body))
                }
                #expect(answer.status == .created, "\(answer.status)")
                answered.append(try #require(answer.json["id"] as? String).lowercased())
            }
            // On PostgreSQL a read stops at the oldest transaction still open in the cluster
            // (another test's): wait until it shows every answer's widget, or the deadline.
            var created: [RecordedEvent] = []
            let deadline = ContinuousClock.now + .seconds(60)
            repeat {
                created = try await runtime.store.readAll(after: .start, limit: 1_000, filter: EventFilter(categories: ["widget"])).events
                if created.count >= answered.count { break }
                try await Task.sleep(for: .milliseconds(50))
            } while ContinuousClock.now < deadline
            #expect(created.count == answered.count, "one widget a command, however its first request ended")
            #expect(Set(created.map { String($0.stream.dropFirst("widget-".count)) }) == Set(answered), "each answer names the widget made")
        }
    }

    /// Sends `request` on a new connection to `port` and closes it at once, reading nothing.
    private static func sendAndLeave(port: Int, _ request: String) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EIO) }
    }
}
