import Foundation
import Testing

@testable import ServiceKit

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
        // The path parameter and the kit's headers come as references to the shared components.
        #expect(
            all.compactMap { $0["$ref"] as? String }
                == [
                    "#/components/parameters/path.id", "#/components/parameters/XRequestId", "#/components/parameters/XCorrelationId",
                    "#/components/parameters/IdempotencyKey",
                ])
        let parameters = all.filter { $0["$ref"] == nil }
        #expect(parameters.map { "\($0["in"]!) \($0["name"]!) \($0["required"]!)" } == ["query limit 0", "query cursor 0", "query q 1"])
        #expect(parameters[0]["schema"] as? NSDictionary == ["type": "integer", "minimum": 1, "maximum": 50])
        #expect(parameters[1]["schema"] as? NSDictionary == ["type": "string", "maxLength": 1_024, "pattern": noNUL])
        #expect(parameters[2]["schema"] as? NSDictionary == ["type": "string", "maxLength": 200, "pattern": noNUL])
        let body = try #require(
            ((((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                as? [String: Any])?["properties"] as? [String: Any])
        #expect(body["name"] as? NSDictionary == ["type": "string", "minLength": 1, "maxLength": 80, "pattern": noNUL])
        #expect(body["count"] as? NSDictionary == ["type": "integer", "minimum": 0, "maximum": 9])
        #expect(body["lat"] as? NSDictionary == ["type": "number", "minimum": -90, "maximum": 90])
        #expect(body["kind"] as? NSDictionary == ["type": "string", "enum": ["a", "b"]])
        #expect(body["tags"] as? NSDictionary == ["type": "array", "maxItems": 5, "items": ["type": "string", "maxLength": 20, "pattern": noNUL]])
        // Without bounds, as before: nothing is declared that the service does not enforce.
        #expect(body["free"] as? NSDictionary == ["type": "integer"])
        // A field that is not required may be null, which the services read as absent.
        #expect(body["note"] as? NSDictionary == ["type": ["string", "null"], "maxLength": 9, "pattern": noNUL])
    }

    /// Text without NUL, as the document writes it.
    private let noNUL = "^[^\\u0000]*$"

    @Test("every text a request sends states that it refuses NUL, and the pattern refuses exactly that")
    func nulInText() throws {
        let pattern = try NSRegularExpression(pattern: noNUL)
        func matches(_ text: String) -> Bool { pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(matches("Oak chair, été") && matches(""))
        #expect(!matches("Oak\u{0}chair"))
        let schema = Schema.object(["name": .string(maxLength: 9)]).refusingNUL
        #expect(schema.departures(of: ["name": "a\u{0}b"]) == ["$.name: holds NUL (U+0000)"])
        // What a body does not name (a field the route ignores, a key) refuses NUL too, at any depth.
        let document = OpenAPIDocument(title: "T", operations: [.init("POST", "/v1/things", "Make.", body: .object(["name": .string(maxLength: 9)]))])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let operation = try #require(((json["paths"] as? [String: Any])?["/v1/things"] as? [String: Any])?["post"] as? [String: Any])
        let body = try #require(
            (((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                as? [String: Any])
        #expect(body["$ref"] as? String == "#/components/schemas/WithoutNUL")
        let anything = try #require(((json["components"] as? [String: Any])?["schemas"] as? [String: Any])?["WithoutNUL"] as? [String: Any])
        #expect(anything["pattern"] as? String == noNUL && (anything["propertyNames"] as? [String: String])?["pattern"] == noNUL)
        #expect(anything["additionalProperties"] as? [String: String] == ["$ref": "#/components/schemas/WithoutNUL"])
        #expect(anything["items"] as? [String: String] == ["$ref": "#/components/schemas/WithoutNUL"])
    }

    @Test("the If-Match pattern takes exactly the ETags the services read")
    func ifMatchForm() throws {
        let pattern = try NSRegularExpression(pattern: ETagVersion.pattern)
        for (value, version) in [
            (#""3""#, Int64?(3)), (#"W/"12""#, 12), (#""999999999999999999""#, 999_999_999_999_999_999), (#""+3""#, nil), (#""W/3""#, nil),
            (#"3"#, nil), (#""""#, nil), (#""1000000000000000000""#, nil), (#""3"x"#, nil), (#"*"#, nil),
        ] {
            #expect(ETagVersion.parse(value) == version, "\(value)")
            #expect((pattern.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil) == (version != nil), "\(value)")
        }
    }

    @Test("a rule across fields is written as anyOf beside the object's own keywords, and checked")
    func acrossFields() throws {
        let change = Schema.object(["delta": .integer(-5...5), "note": .string(maxLength: 9)])
            .requiringAny(of: [.object(["delta": .integer(-5...5)], required: ["delta"]), .object([:], required: ["note"])])
        let document = OpenAPIDocument(title: "T", operations: [.init("PATCH", "/v1/things/{id}", "Change.", body: change)])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let operation = try #require(((json["paths"] as? [String: Any])?["/v1/things/{id}"] as? [String: Any])?["patch"] as? [String: Any])
        let body = try #require(
            (((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                as? [String: Any])
        let branches = try #require(body["anyOf"] as? [[String: Any]])
        #expect(branches.map { $0["required"] as? [String] ?? [] } == [["delta"], ["note"]])
        // A required field of a branch stays non-null: null is no edit.
        #expect((branches[0]["properties"] as? [String: Any])?["delta"] as? NSDictionary == ["type": "integer", "minimum": -5, "maximum": 5])
        #expect(change.departures(of: ["note": "x"]).isEmpty && change.departures(of: ["delta": 1, "note": "x"]).isEmpty)
        #expect(change.departures(of: [String: Any]()) == ["$: matches none of the 2 alternatives (anyOf)"])
    }
}
