import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import Testing

@Suite("problem documents")
struct ProblemDocumentTests {
    @Test("malformed JSON, wrong types and missing fields get 400 with per-field errors")
    func badBodies() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: "{\"name\": ")) {
                response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json["type"] as? String == Problem.base + "malformed-request")
                #expect(response.json["status"] as? Int == 400)
            }
            try await client.execute(
                uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: #"{"name": "a", "count": "many"}"#)
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.fieldErrors["count"] == ["must be an integer"])
            }
            try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: #"{"count": 1}"#)) {
                response in
                #expect(response.status == .badRequest)
                #expect(response.fieldErrors["name"] == ["is required"])
            }
            try await client.execute(
                uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: #"{"name": "", "count": -1}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(Set(response.fieldErrors.keys) == ["name", "count"])
            }
        }
    }

    @Test("unknown routes get 404, wrong methods 405 with Allow, all as problems")
    func routing() async throws {
        try await KitHarness().test { client, _, _ in
            try await client.execute(uri: "/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/v1/widgets", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
            }
            try await client.execute(uri: "/v1/widgets/not-a-uuid", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("oversized bodies get 413 and bodies that are not JSON get 415")
    func sizesAndTypes() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            let huge = "{\"name\": \"" + String(repeating: "x", count: 200_000) + "\", \"count\": 1}"
            try await client.execute(uri: "/v1/widgets", method: .post, headers: .json(token: token), body: ByteBuffer(string: huge)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.json["type"] as? String == Problem.base + "too-large")
            }
            var headers = HTTPFields.json(token: token)
            headers[.contentType] = "text/plain"
            try await client.execute(uri: "/v1/widgets", method: .post, headers: headers, body: ByteBuffer(string: "name=x")) { response in
                #expect(response.status == .unsupportedMediaType)
            }
        }
    }

    @Test("a NUL in a query field gets 400 naming the field, whatever the route; one in the path gets 400 too")
    func nulInTheQuery() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        try await harness.test { client, _, _ in
            for uri in ["/v1/widgets/\(UUID())?name=a%00b&count=1", "/v1/admin/widgets?name=a%00b&count=1", "/v1/nothing-here?name=a%00b"] {
                try await client.execute(uri: uri, method: .get, headers: .json(token: token)) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.json["type"] as? String == Problem.base + "malformed-request")
                    #expect(response.fieldErrors["name"] == ["must not contain NUL (U+0000)"])
                    #expect(response.fieldErrors["count"] == nil)
                }
            }
            try await client.execute(uri: "/v1/nothing-here?name=100%2500", method: .get) { response in
                #expect(response.status == .notFound)
            }
            for uri in ["/v1/widgets/abc%00def", "/v1/nothing%00here"] {
                try await client.execute(uri: uri, method: .get, headers: .json(token: token)) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect((response.json["detail"] as? String)?.contains("path") == true)
                }
            }
        }
    }

    @Test("no request, however malformed, gets a 500")
    func fuzzedRequests() async throws {
        let harness = try await KitHarness()
        let token = try await harness.token()
        let bodies = [
            "", "null", "[]", "{}", "\u{0}", "{\"name\": null, \"count\": null}", "{\"name\": [1], \"count\": {}}",
            String(repeating: "[", count: 10_000), "{\"name\": \"\\ud800\", \"count\": 1e400}",
        ]
        try await harness.test { client, _, _ in
            for body in bodies {
                for uri in ["/v1/widgets", "/v1/widgets/\(UUID())", "/v1/slow"] {
                    for method in [HTTPRequest.Method.post, .patch, .get, .put] {
                        try await client.execute(
                            uri: uri, method: method, headers: .json(token: token, [.ifMatch: "\"1\""]), body: ByteBuffer(string: body)
                        ) { response in
                            #expect(response.status.code < 500, "\(method) \(uri) \(body.prefix(20)) → \(response.status)")
                        }
                    }
                }
            }
        }
    }
}
