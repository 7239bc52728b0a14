import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import Testing

@Suite("writes: idempotency, versions, read-your-writes, metadata")
struct WriteProtocolTests {
    @Test("a retry with the same Idempotency-Key returns the first response; another body gets 422", arguments: Backend.allCases)
    func idempotency(backend: Backend) async throws {
        let harness = try await KitHarness(backend: backend)
        let token = try await harness.token()
        try await harness.test { client, runtime, _ in
            let headers = HTTPFields.json(token: token, [.idempotencyKey: "key-1"])
            var first: [String: Any] = [:]
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": "a", "count": 1}"#)) {
                response in
                #expect(response.status == .created)
                first = response.json
            }
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": "a", "count": 1}"#)) {
                response in
                #expect(response.status == .created)
                #expect(response.json["id"] as? String == first["id"] as? String)
                #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": "b", "count": 1}"#)) {
                response in
                #expect(response.status == .unprocessableContent)
            }
            let id = try #require(first["id"] as? String).lowercased()
            #expect(try await runtime.store.read(stream: "widget-\(id)").count == 1)
        }
    }

    @Test("the records keep neither the Idempotency-Key nor the first answer in clear, and the answer still replays")
    func sealedRecords() async throws {
        let harness = try await KitHarness(backend: .sqlite)
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            let headers = HTTPFields.json(token: token, [.idempotencyKey: "key-secret-77"])
            let body = #"{"name": "12 Harbour Lane", "count": 1}"#
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                #expect($0.status == .created)
            }
            var stored = Data()
            for suffix in ["", "-wal"] {
                stored += (try? Data(contentsOf: URL(fileURLWithPath: try #require(harness.log.sqliteFile) + ".idempotency" + suffix))) ?? Data()
            }
            #expect(!stored.isEmpty)
            #expect(stored.range(of: Data("Harbour".utf8)) == nil, "the answer is sealed")
            #expect(stored.range(of: Data("key-secret-77".utf8)) == nil, "the key is hashed")
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .created)
                #expect(response.json["name"] as? String == "12 Harbour Lane")
                #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
        }
    }

    @Test("a duplicate sent while the first is still running gets 409")
    func concurrentDuplicate() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            let gate = "concurrent-duplicate-\(UUID())"
            let headers = HTTPFields.json(token: token, [.idempotencyKey: "slow-1", HTTPField.Name("X-Test-Gate")!: gate])
            async let first = client.execute(uri: "/v1/slow", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            try await SlowGate.shared.waitUntilInside(gate) // the first is running, its key taken
            let second = try await client.execute(uri: "/v1/slow", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            await SlowGate.shared.open(gate)
            #expect(second.status == .conflict)
            #expect(try await first.status == .created)
        }
    }

    @Test(
        "a retry that reaches another replica gets the first answer; a duplicate running on one is 409 with Retry-After on the other",
        arguments: Backend.allCases)
    func idempotencyAcrossReplicas(backend: Backend) async throws {
        let harness = try await KitHarness(backend: backend)
        let token = try await harness.token()
        try await harness.testReplicas { one, two in
            let headers = HTTPFields.json(token: token, [.idempotencyKey: "across-1"])
            let body = ByteBuffer(string: #"{"name": "a", "count": 1}"#)
            let first = try await one.execute(uri: "/v1/widgets", method: .post, headers: headers, body: body)
            #expect(first.status == .created)
            // The first answer's record is stored just after the answer leaves: a retry at
            // another replica in that moment gets 409 with Retry-After, and retries as told.
            var retry = try await two.execute(uri: "/v1/widgets", method: .post, headers: headers, body: body)
            for _ in 0..<50 where retry.status == .conflict && retry.headers[.retryAfter] != nil {
                try await Task.sleep(for: .milliseconds(100))
                retry = try await two.execute(uri: "/v1/widgets", method: .post, headers: headers, body: body)
            }
            #expect(retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(retry.json["id"] as? String == first.json["id"] as? String)

            let gate = "across-replicas-\(UUID())"
            let slow = HTTPFields.json(token: token, [.idempotencyKey: "slow-across", HTTPField.Name("X-Test-Gate")!: gate])
            async let running = one.execute(uri: "/v1/slow", method: .post, headers: slow, body: ByteBuffer(string: "{}"))
            try await SlowGate.shared.waitUntilInside(gate)
            let duplicate = try await two.execute(uri: "/v1/slow", method: .post, headers: slow, body: ByteBuffer(string: "{}"))
            await SlowGate.shared.open(gate)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.headers[.retryAfter] == "1")
            #expect(try await running.status == .created)
        }
    }

    @Test("If-Match with a stale version gets 412 with the current ETag; none gets 428")
    func optimisticConcurrency() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            let created = try await client.execute(
                uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: #"{"name": "a", "count": 1}"#))
            let location = try #require(created.headers[.location])
            #expect(created.headers[.eTag] == "\"1\"")
            let body = ByteBuffer(string: #"{"name": "b", "count": 2}"#)
            try await client.execute(uri: location, method: .patch, headers: .json(token: token, [.ifMatch: "\"1\""]), body: body) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == "\"2\"")
            }
            try await client.execute(uri: location, method: .patch, headers: .json(token: token, [.ifMatch: "\"1\""]), body: body) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.headers[.eTag] == "\"2\"")
            }
            try await client.execute(uri: location, method: .patch, headers: .json(token: token), body: body) { response in
                #expect(response.status == .preconditionRequired)
            }
        }
    }

    @Test(
        "a write's Commons-Position lets a read wait for it; one beyond the log's end is 400 at once; one the read model cannot reach is 503",
        arguments: Backend.allCases)
    func readYourWrites(backend: Backend) async throws {
        let harness = try await KitHarness(backend: backend, environment: ["COMMONS_MIN_POSITION_PATIENCE_MS": "300"])
        let token = try await harness.token()
        try await harness.test { client, runtime, _ in
            let created = try await client.execute(
                uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: #"{"name": "a", "count": 7}"#))
            let position = try #require(created.headers[.commonsPosition])
            let location = try #require(created.headers[.location])
            try await client.execute(uri: location, method: .get, headers: [.commonsMinPosition: position]) { response in
                #expect(response.status == .ok)
                #expect(response.json["count"] as? Int == 7)
            }
            for madeUp in ["999999999:1", "91200118350606550:81"] {
                try await client.execute(uri: location, method: .get, headers: [.commonsMinPosition: madeUp]) { response in
                    #expect(response.status == .badRequest, "\(madeUp)")
                    #expect((response.json["errors"] as? [String: [String]])?["Commons-Min-Position"] == ["is beyond the end of the log"])
                }
            }
            // An event the projection cannot apply halts it: the log has reached the position, the read model never will.
            let poison = try await runtime.store.append(
                to: "widget-poison", expected: .any,
                events: [NewEvent(type: "Broken", schemaVersion: 1, data: Data(#"{"name": {"not": "a scalar"}}"#.utf8))])
            try await client.execute(uri: location, method: .get, headers: [.commonsMinPosition: poison.checkpoint.description]) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] != nil)
            }
            try await client.execute(uri: location, method: .get, headers: [.commonsMinPosition: "yesterday"]) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("events a request appends carry its request, correlation and actor ids")
    func metadata() async throws {
        let harness = try await KitHarness()
        let account = UUID()
        let token = try await harness.token(account: account)
        try await harness.test { client, runtime, _ in
            let headers = HTTPFields.json(token: token, [HTTPField.Name("X-Request-Id")!: "req-42", HTTPField.Name("X-Correlation-Id")!: "flow-7"])
            let response = try await client.execute(
                uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": "a", "count": 1}"#))
            #expect(response.headers[HTTPField.Name("X-Request-Id")!] == "req-42")
            let id = try #require(response.json["id"] as? String).lowercased()
            let event = try #require(try await runtime.store.read(stream: "widget-\(id)").first)
            #expect(
                event.metadata
                    == EventMetadata(
                        correlationId: "flow-7", causationId: "req-42", actorId: account.uuidString.lowercased(), requestId: "req-42",
                        service: "widgets"))
        }
    }

    @Test("requests beyond the rate limit get 429 with Retry-After and RateLimit headers")
    func rateLimits() async throws {
        let harness = try await KitHarness(environment: ["COMMONS_RATE_LIMIT_PER_MINUTE": "3"])
        try await harness.test { client, _, _ in
            for _ in 0..<3 {
                try await client.execute(uri: "/v1/widgets/\(UUID())", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.rateLimitPolicy] == "\"default\";q=3;w=60")
                }
            }
            try await client.execute(uri: "/v1/widgets/\(UUID())", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
                #expect(response.headers[.rateLimit]?.hasPrefix("\"default\";r=0") == true)
            }
            // Health checks are never limited.
            try await client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test("behind a trusted proxy each forwarded client has its own rate limit; an untrusted peer cannot pick one")
    func forwardedClients() async throws {
        // The router test client has no peer address: the kit calls it "local".
        let harness = try await KitHarness(environment: ["COMMONS_RATE_LIMIT_PER_MINUTE": "2", "COMMONS_TRUSTED_PROXIES": "local"])
        try await harness.test { client, _, _ in
            let forwarded = HTTPField.Name("X-Forwarded-For")!
            for address in ["203.0.113.1", "203.0.113.2"] {
                for _ in 0..<2 {
                    try await client.execute(uri: "/health/ready", method: .get) { _ in }
                    try await client.execute(uri: "/v1/widgets/\(UUID())", method: .get, headers: [forwarded: "198.51.100.9, \(address)"]) {
                        #expect($0.status == .notFound)
                    }
                }
                try await client.execute(uri: "/v1/widgets/\(UUID())", method: .get, headers: [forwarded: address]) {
                    #expect($0.status == .tooManyRequests)
                }
            }
        }
        #expect(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: ["203.0.113.1"], trusted: ["127.0.0.1"]) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["203.0.113.1, 127.0.0.1"], trusted: ["127.0.0.1"]) == "203.0.113.1")
    }
}
