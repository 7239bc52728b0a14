import DonationsService
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit
import Testing

@Suite("donations: API contract")
struct ContractTests {
    @Test("the OpenAPI document lists exactly the routes the service serves")
    func openAPIMatchesRoutes() async throws {
        try await DonationsHarness().test { client in
            let served = Set(client.routes)
            let document = try await client.call(.get, "/openapi.json")
            let paths = document.json["paths"] as? [String: [String: Any]] ?? [:]
            let documented = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
            #expect(
                served == documented,
                "served but not documented: \(served.subtracting(documented)); documented but not served: \(documented.subtracting(served))")
        }
    }

    @Test("malformed bodies, ids and queries on every route get a 4xx problem document, never a 500")
    func malformedInput() async throws {
        try await DonationsHarness().test { client in
            let admin = try await client.admin()
            try await client.organization("robust")
            let bodies: [Any] = [["unexpected": true], [1, 2, 3], ["amountMinor": "ten", "organization": 5, "verified": "yes", "caption": 7]]
            for route in client.routes {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                for path in [
                    String(parts[1]).replacingOccurrences(of: "{id}", with: "robust"),
                    String(parts[1]).replacingOccurrences(of: "{id}", with: "not-a-uuid"),
                ] {
                    for body in bodies {
                        let reply = try await client.call(
                            method, path + "?limit=abc&cursor=@@", token: admin, json: body, key: UUID().uuidString,
                            headers: [.ifMatch: "\"1\""])
                        #expect(reply.status.code < 500, "\(route) \(path): \(reply.status) \(reply.text)")
                    }
                    let raw = try await client.client.execute(
                        uri: path, method: method,
                        headers: [
                            .contentType: "application/json", .authorization: "Bearer \(admin)",
                            .idempotencyKey: UUID().uuidString,
                        ],
                        body: ByteBuffer(string: "{not json"))
                    #expect(raw.status.code < 500, "\(route) raw: \(raw.status)")
                }
            }
        }
    }
}
