import Foundation
import Testing

@testable import ServiceKit

/// How an ``OpenAPIDocument`` writes answers: every status a route can give, JSON bodies as
/// schemas, problem documents for errors, and the kit's headers.
@Suite("OpenAPI document: answers")
struct OpenAPIResponsesTests {
    typealias Schema = OpenAPIDocument.Schema

    private let thing = Schema.object(["id": .string(format: "uuid"), "note": .nullable(.string(maxLength: 10))], required: ["id"])

    /// The operation's answers as the document writes them, a shared one read through its
    /// reference (with the operation's own description when it gives one).
    private func responses(_ operation: OpenAPIDocument.Operation) throws -> [String: [String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument(title: "T", operations: [operation]).json()) as? [String: Any])
        let item = try #require((json["paths"] as? [String: Any])?[operation.path] as? [String: Any])
        let written = try #require((item[operation.method.lowercased()] as? [String: Any])?["responses"] as? [String: [String: Any]])
        let shared = (json["components"] as? [String: Any])?["responses"] as? [String: [String: Any]] ?? [:]
        return try written.mapValues { answer in
            guard let reference = answer["$ref"] as? String else { return answer }
            let name = String(reference.dropFirst("#/components/responses/".count))
            let resolved = try #require(shared[name], "\(reference) is not in components.responses")
            return resolved.merging(answer.filter { $0.key == "description" }) { _, mine in mine }
        }
    }

    @Test("a POST with a body on an id, signed in, documents the kit's statuses besides its own")
    func impliedStatuses() throws {
        let post = OpenAPIDocument.Operation(
            "POST", "/v1/things/{id}/notes", "Note.", authenticated: true,
            body: .object(["text": .string(maxLength: 5)]), responses: [201: "Noted", 409: "Closed"],
            returns: [201: thing])
        #expect(Set(try responses(post).keys) == ["201", "400", "401", "403", "404", "409", "413", "415", "422", "429", "503", "default"])
        #expect(post.allResponses[409] == "Closed", "a route's own description wins over the kit's")
        let get = OpenAPIDocument.Operation("GET", "/v1/things", "List.")
        #expect(Set(try responses(get).keys) == ["200", "401", "429", "503", "default"], "a read needs no CSRF echo, so no 403")
    }

    @Test("a route that starts a session documents Commons-Token-Delivery; authenticated routes take the bearer token or the browser's cookie")
    func browserSessions() throws {
        let signIn = OpenAPIDocument.Operation("POST", "/v1/sessions", "Sign in.", body: .object([:]), responses: [201: "In"]).deliveringTokens()
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: OpenAPIDocument(
                    title: "T",
                    operations: [
                        signIn, .init("GET", "/v1/me", "Me.", authenticated: true),
                    ]
                ).json()) as? [String: Any])
        let paths = try #require(json["paths"] as? [String: [String: [String: Any]]])
        let parameters = paths["/v1/sessions"]?["post"]?["parameters"] as? [[String: String]] ?? []
        #expect(parameters.contains(["$ref": "#/components/parameters/CommonsTokenDelivery"]))
        #expect(paths["/v1/me"]?["get"]?["security"] as? [[String: [String]]] == [["bearer": []], ["sessionCookie": []]])
        let schemes = (json["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: Any]]
        #expect(schemes?["sessionCookie"]?["name"] as? String == BrowserSession.accessCookie)
    }

    @Test("a success has its JSON schema and Commons-Position on writes; an error is a problem document; 429 says Retry-After")
    func bodiesAndHeaders() throws {
        let answers = try responses(.init("POST", "/v1/things", "Make.", body: .object([:]), responses: [201: "Made"], returns: [201: thing]))
        let made = try #require(answers["201"])
        let schema = ((made["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
        #expect((schema?["properties"] as? [String: Any])?["note"] as? NSDictionary == ["type": ["string", "null"], "maxLength": 10])
        #expect(schema?["required"] as? [String] == ["id"])
        #expect(Set((made["headers"] as? [String: Any] ?? [:]).keys) == ["X-Request-Id", "RateLimit", "RateLimit-Policy", "Commons-Position"])
        let limited = try #require(answers["429"])
        #expect((limited["content"] as? [String: Any])?["application/problem+json"] != nil)
        #expect((limited["headers"] as? [String: Any])?["Retry-After"] != nil)
    }

    @Test("a problem answer is written once in components.responses and referred to, with a route's own description beside it")
    func sharedProblems() throws {
        let post = OpenAPIDocument.Operation(
            "POST", "/v1/things/{id}/notes", "Note.", body: .object(["text": .string(maxLength: 5)]), responses: [201: "Noted", 404: "No such thing"])
        let json = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument(title: "T", operations: [post]).json()) as? [String: Any])
        let written = try #require(
            ((json["paths"] as? [String: Any])?["/v1/things/{id}/notes"] as? [String: Any])?["post"] as? [String: Any])
        let answers = try #require(written["responses"] as? [String: [String: Any]])
        #expect(answers["404"] as? NSDictionary == ["$ref": "#/components/responses/404", "description": "No such thing"])
        #expect(answers["413"] as? NSDictionary == ["$ref": "#/components/responses/413"], "the kit's own description needs no repeating")
        #expect(answers["default"] as? NSDictionary == ["$ref": "#/components/responses/Problem"])
        #expect(answers["201"]?["$ref"] == nil, "a success has its own body, written in place")
        let shared = try #require((json["components"] as? [String: Any])?["responses"] as? [String: [String: Any]])
        // The kit's own routes' alike answers are shared too, under `<status>.<name>`.
        #expect(Set(shared.keys.filter { !$0.contains(".") }) == Set(answers.keys.filter { $0 != "201" && $0 != "default" }).union(["Problem"]))
        #expect(shared["404"]?["description"] as? String == "Nothing with that id")
        let parameters = try #require((json["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]])
        #expect(parameters["path.id"]?["schema"] as? NSDictionary == ["type": "string", "pattern": "^[^\\u0000]*$"])
    }

    @Test("a named schema is written once in components.schemas and referred to wherever it is used")
    func sharedComponents() throws {
        let view = thing.named("Thing")
        let document = OpenAPIDocument(
            title: "T",
            operations: [
                .init("GET", "/v1/things/{id}", "One.", returns: [200: view]),
                .init("GET", "/v1/things", "All.", returns: [200: .object(["items": .array(view)], required: ["items"])]),
            ])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let schemas = try #require((json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(Set(schemas.keys) == ["Thing", "Problem", "WithoutNUL"])
        #expect((schemas["Thing"] as? [String: Any])?["required"] as? [String] == ["id"])
        let text = String(decoding: try document.json(), as: UTF8.self)
        #expect(text.components(separatedBy: "\"$ref\":\"#/components/schemas/Thing\"").count - 1 == 2)
        // The check reads through the name.
        #expect(view.departures(of: ["id": "6f1c2b0a-5d3e-4c11-9a7e-2b1f0c3d4e5f", "extra": 1]) == ["$.extra: not in the document"])
        // Two services may not give one name two meanings.
        let other = OpenAPIDocument(title: "U", operations: [.init("GET", "/v1/others", "All.", returns: [200: Schema.object([:]).named("Thing")])])
        #expect(throws: OpenAPIDocument.Conflict(route: "schema Thing")) {
            try OpenAPIDocument.merged(
                title: "M", description: "", services: [.init(service: "t", document: document), .init(service: "u", document: other)])
        }
    }

    @Test("an answer or a query parameter that several operations write alike is written once in components and referred to")
    func sharedRepeats() throws {
        let remove = { (path: String) in
            OpenAPIDocument.Operation("DELETE", path, "Remove.", query: [.limit(1...10)], responses: [204: "Removed"])
        }
        let document = OpenAPIDocument(title: "T", operations: [remove("/v1/things/{id}"), remove("/v1/others/{id}")])
        let json = try #require(try JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        let components = try #require(json["components"] as? [String: [String: [String: Any]]])
        #expect(components["responses"]?["204.Removed"]?["description"] as? String == "Removed")
        #expect(components["parameters"]?["query.limit"]?["name"] as? String == "limit")
        let paths = try #require(json["paths"] as? [String: [String: [String: Any]]])
        for path in ["/v1/things/{id}", "/v1/others/{id}"] {
            let operation = try #require(paths[path]?["delete"])
            #expect((operation["responses"] as? [String: NSDictionary])?["204"] == ["$ref": "#/components/responses/204.Removed"])
            #expect((operation["parameters"] as? [NSDictionary])?.contains(["$ref": "#/components/parameters/query.limit"]) == true)
        }
        let once = OpenAPIDocument(title: "T", operations: [remove("/v1/things/{id}")])
        let alone = try #require(try JSONSerialization.jsonObject(with: once.json()) as? [String: Any])
        let operation = ((alone["paths"] as? [String: [String: [String: Any]]])?["/v1/things/{id}"]?["delete"])
        #expect((operation?["responses"] as? [String: [String: Any]])?["204"]?["$ref"] == nil, "an answer given once stays in place")
    }
}
