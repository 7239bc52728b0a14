import Foundation
import HTTPTypes
import ListingsService
import ServiceKit
import Testing

@Suite("the listings API as a whole")
struct ListingsAPITests {
    @Test("the OpenAPI document lists exactly the routes served")
    func openAPI() async throws {
        try await ListingsHarness().test { client in
            let documented = try ListingsService.definition().openAPI.documentedRoutes
            #expect(Set(client.routes) == documented)
            let reply = try await client.get("/openapi.json", after: nil)
            #expect(reply.status == .ok)
        }
    }

    @Test("malformed bodies and odd paths to every route never produce a 500")
    func noServerErrors() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let (id, _, _) = try await client.post(as: owner)
            let bodies: [[UInt8]] = [[], Array("{".utf8), Array("[]".utf8), Array("null".utf8), Array("{\"title\":[1]}".utf8), [0xFF, 0xFE, 0x00]]
            for route in client.routes {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                for path in [
                    String(parts[1]).replacingOccurrences(of: "{id}", with: id),
                    String(parts[1]).replacingOccurrences(of: "{id}", with: "x"),
                ] {
                    for body in bodies {
                        for person in [owner, nil] {
                            let reply = try await client.call(
                                method, path, as: person, bytes: body,
                                headers: [.contentType: "application/json", .ifMatch: "\"1\""])
                            #expect(reply.status.code < 500, "\(route) \(path): \(reply.status) \(reply.text)")
                        }
                    }
                }
            }
        }
    }
}
