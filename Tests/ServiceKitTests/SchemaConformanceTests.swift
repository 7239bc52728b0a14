import Foundation
import ServiceKit
import Testing

/// ``OpenAPIDocument/Schema/departures(of:at:)``: what the API contract check finds.
@Suite("A JSON value against its schema")
struct SchemaConformanceTests {
    typealias Schema = OpenAPIDocument.Schema

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    private let listing = Schema.object(
        [
            "id": .string(format: "uuid"), "status": .oneOf(["available", "given"]), "count": .integer(0...10),
            "free": .boolean, "price": .nullable(.number), "postedAt": .string(format: "date-time"),
            "tags": .array(.string(maxLength: 3), maxItems: 2), "votes": .map(.integer),
        ], required: ["id", "status"])

    @Test("a value that matches has no departures")
    func conforming() throws {
        let value = try json(
            """
            {"id": "6f1c2b0a-0000-4000-8000-000000000001", "status": "given", "count": 3, "free": false, "price": null,
             "postedAt": "2026-11-25T20:00:00.123Z", "tags": ["a", "bcd"], "votes": {"x": 1, "y": 2}}
            """)
        #expect(listing.departures(of: value) == [])
    }

    @Test("an id in upper case departs: every answer spells ids in lower case")
    func upperCaseID() throws {
        let value = try json(#"{"id": "6F1C2B0A-0000-4000-8000-000000000001", "status": "given"}"#)
        #expect(listing.departures(of: value) == [#"$.id: "6F1C2B0A-0000-4000-8000-000000000001" is not a uuid in lower case"#])
    }

    @Test("a missing, mistyped, out-of-range or undocumented field is named with its path")
    func departures() throws {
        let value = try json(
            """
            {"status": "lost", "count": 11, "free": 1, "price": "3", "postedAt": "yesterday", "tags": ["a", "b", "toolong"],
             "votes": {"x": true}, "extra": 0}
            """)
        #expect(
            Set(listing.departures(of: value)) == [
                "$.id: missing",
                "$.status: \"lost\" is not one of available, given",
                "$.count: 11 is outside 0...10",
                "$.free: a number, not a boolean",
                "$.price: a string, not a number",
                "$.postedAt: \"yesterday\" is not a date-time",
                "$.tags[2]: 7 characters, more than 3",
                "$.tags: 3 items, more than 2",
                "$.votes.x: a boolean, not an integer",
                "$.extra: not in the document",
            ])
    }

    @Test("true is not a number and 1.5 is not an integer; anyValue takes everything")
    func numbers() throws {
        #expect(Schema.number.departures(of: try json("true")) == ["$: a boolean, not a number"])
        #expect(Schema.integer.departures(of: try json("1.5")) == ["$: a number, not an integer"])
        #expect(Schema.integer.departures(of: try json("2")) == [])
        #expect(Schema.anyValue.departures(of: try json("[1, {\"a\": null}]")) == [])
    }

    @Test("a schema's example conforms to it: bounds kept, every field given, named fields read as real ones")
    func examples() throws {
        #expect(listing.departures(of: listing.example()) == [])
        let short = Schema.string(minLength: 5, maxLength: 8)
        #expect(short.example(named: "title") as? String == "Oak dini")
        #expect(short.example(named: "zz") as? String == "An examp")
        #expect(Schema.string(minLength: 20, maxLength: 40).example(named: "text") as? String == "Oat milkxxxxxxxxxxxx")
        #expect(Schema.integer(10...20).example(named: "quantity") as? Int == 10)
        #expect(Schema.currencyCode.example() as? String == "EUR")
        let body = Schema.object([
            "lat": .latitude, "lon": .longitude, "commands": .array(.object(["commandId": .string(maxLength: 100)]), maxItems: 5, minItems: 1),
        ])
        #expect(body.departures(of: body.example()) == [])
    }
}
