import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import Testing

@Suite("PostgreSQL outages")
struct OutageTests {
    @Test("PostgreSQL stopped: readiness goes 503 and writes answer 503 with Retry-After within the deadline; started again: both recover unaided")
    func outage() async throws {
        try await ThrowawayPostgres.with { cluster in
            let harness = try await KitHarness(backend: .postgres, environment: ["COMMONS_REQUEST_DEADLINE_SECONDS": "3"], postgresURL: cluster.url)
            let token = try await harness.token()
            try await harness.test { client, _, _ in
                #expect(try await Self.becomesReady(client), "ready at start")
                let body = ByteBuffer(string: #"{"name": "before", "count": 1}"#)
                #expect(try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(token: token), body: body).status == .created)

                try await cluster.pause()
                let ready = try await client.execute(uri: "/health/ready", method: .get)
                #expect(ready.status == .serviceUnavailable)
                #expect(ready.headers[.retryAfter] != nil)
                let write = try await client.execute(
                    uri: "/v1/widgets", method: .post, headers: .json(token: token, [.idempotencyKey: "outage-1"]),
                    body: ByteBuffer(string: #"{"name": "during", "count": 2}"#))
                #expect(write.status == .serviceUnavailable, "\(String(buffer: write.body))")
                #expect(write.headers[.retryAfter] != nil)
                // Ended by its deadline, however long the machine took to get there: a write that
                // waited for PostgreSQL past it would hang, or be answered for another reason.
                #expect(write.json["type"] as? String == Problem.base + "deadline", "\(String(buffer: write.body))")

                try await cluster.resume()
                #expect(try await Self.becomesReady(client), "ready again within 20 s of PostgreSQL coming back")
                // The key whose request failed during the outage works once its lease lapses.
                var retried: HTTPResponse.Status = .serviceUnavailable
                for _ in 0..<60 where retried != .created {
                    retried = try await client.execute(
                        uri: "/v1/widgets", method: .post, headers: .json(token: token, [.idempotencyKey: "outage-1"]),
                        body: ByteBuffer(string: #"{"name": "during", "count": 2}"#)
                    ).status
                    if retried != .created { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(retried == .created)
            }
        }
    }

    /// Polls `/health/ready` for up to 20 s.
    static func becomesReady(_ client: any TestClientProtocol) async throws -> Bool {
        for _ in 0..<100 {
            if try await client.execute(uri: "/health/ready", method: .get).status == .ok { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
