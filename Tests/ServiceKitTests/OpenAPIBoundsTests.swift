import Foundation
import ServiceKit
import Testing

/// How an ``OpenAPIDocument`` writes bounds and query parameters (each service's own bounds
/// are checked in its tests, with `OpenAPIBounds`).
@Suite("OpenAPI document: bounds and query parameters")
struct OpenAPIBoundsTests {
    typealias Schema = OpenAPIDocument.Schema

    @Test("bounds are written as JSON Schema keywords, and query parameters as parameters in: query")
    func rendering() throws {
        let document = OpenAPIDocument(
            title: "Bounds",
            operations: [
                .init(
                    "POST", "/v1/things/{id}", "Make a thing.", query: [.limit(1...50), .cursor, .init("q", .searchText, required: true)],
                    body: .object(
                        [
                            "name": .string(minLength: 1, maxLength: 80), "count": .integer(0...9), "lat": .latitude,
                            "kind": .oneOf(["a", "b"]), "tags": .array(.string(maxLength: 20), maxItems: 5), "free": .integer,
                            "note": .string(maxLength: 9),
                        ],
                        required: ["name", "count", "lat", "kind", "tags", "free"]))
            ])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let operation = try #require(((json["paths"] as? [String: Any])?["/v1/things/{id}"] as? [String: Any])?["post"] as? [String: Any])
        let all = try #require(operation["parameters"] as? [[String: Any]])
        // The kit's headers come as references to the shared components.
        #expect(
            all.compactMap { $0["$ref"] as? String }
                == ["#/components/parameters/XRequestId", "#/components/parameters/XCorrelationId", "#/components/parameters/IdempotencyKey"])
        let parameters = all.filter { $0["$ref"] == nil }
        #expect(parameters.map { "\($0["in"]!) \($0["name"]!) \($0["required"]!)" } == ["path id 1", "query limit 0", "query cursor 0", "query q 1"])
        #expect(parameters[1]["schema"] as? NSDictionary == ["type": "integer", "minimum": 1, "maximum": 50])
        #expect(parameters[2]["schema"] as? NSDictionary == ["type": "string", "maxLength": 1_024])
        #expect(parameters[3]["schema"] as? NSDictionary == ["type": "string", "maxLength": 200])
        let body = try #require(
            ((((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                as? [String: Any])?["properties"] as? [String: Any])
        #expect(body["name"] as? NSDictionary == ["type": "string", "minLength": 1, "maxLength": 80])
        #expect(body["count"] as? NSDictionary == ["type": "integer", "minimum": 0, "maximum": 9])
        #expect(body["lat"] as? NSDictionary == ["type": "number", "minimum": -90, "maximum": 90])
        #expect(body["kind"] as? NSDictionary == ["type": "string", "enum": ["a", "b"]])
        #expect(body["tags"] as? NSDictionary == ["type": "array", "maxItems": 5, "items": ["type": "string", "maxLength": 20]])
        // Without bounds, as before: nothing is declared that the service does not enforce.
        #expect(body["free"] as? NSDictionary == ["type": "integer"])
        // A field that is not required may be null, which the services read as absent.
        #expect(body["note"] as? NSDictionary == ["type": ["string", "null"], "maxLength": 9])
    }
}
