import Foundation
import Testing

@testable import ServiceKit

@Suite("The merged API document")
struct MergedOpenAPIDocumentTests {
    private let widgets = OpenAPIDocument(
        title: "Widgets",
        operations: [
            .init("GET", "/v1/widgets", "List widgets.", query: [.limit()]),
            .init("POST", "/v1/widgets", "Make a widget.", authenticated: true, body: .object(["name": .string(maxLength: 10)], required: ["name"])),
        ])
    private let gadgets = OpenAPIDocument(title: "Gadgets", operations: [.init("GET", "/v1/gadgets/{id}", "One gadget.")])

    @Test("every service's operations, tagged with its name; the per-service routes left out")
    func merges() throws {
        let data = try OpenAPIDocument.merged(
            title: "All", description: "Both.",
            services: [
                .init(service: "widgets", document: widgets), .init(service: "gadgets", document: gadgets),
            ])
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        #expect(Set(paths.keys) == ["/v1/widgets", "/v1/gadgets/{id}"])
        #expect(paths["/v1/widgets"]?["post"]?["tags"] as? [String] == ["widgets"])
        #expect(paths["/v1/gadgets/{id}"]?["get"]?["tags"] as? [String] == ["gadgets"])
        #expect(paths["/v1/widgets"]?["post"]?["security"] != nil && paths["/v1/widgets"]?["get"]?["security"] == nil)
        let tags = try #require(document["tags"] as? [[String: String]])
        #expect(tags.map { $0["name"] } == ["widgets", "gadgets"])
        #expect((document["info"] as? [String: String])?["description"] == "Both.")
    }

    @Test("two services documenting the same route cannot be merged")
    func conflict() {
        #expect(throws: OpenAPIDocument.Conflict(route: "GET /v1/widgets")) {
            try OpenAPIDocument.merged(
                title: "All", description: "",
                services: [
                    .init(service: "widgets", document: widgets), .init(service: "copy", document: widgets),
                ])
        }
    }
}
