import Codecs
import Foundation

/// A service's OpenAPI 3.1 document, built from the same list of operations that a test
/// compares with the router, so the document cannot fall behind the routes.
public struct OpenAPIDocument: Sendable {
    public var title: String
    public var operations: [Operation]

    public init(title: String, operations: [Operation]) {
        self.title = title
        self.operations = operations
    }

    /// One method on one path (`{name}` for parameters, as the router writes them).
    public struct Operation: Sendable {
        public var method: String
        public var path: String
        public var summary: String
        public var authenticated: Bool
        /// The query parameters the route reads, with the bounds it enforces.
        public var query: [Parameter]
        public var requestBody: Schema?
        public var responses: [Int: String]

        public init(_ method: String, _ path: String, _ summary: String, authenticated: Bool = false, query: [Parameter] = [],
                    body: Schema? = nil, responses: [Int: String] = [200: "OK"]) {
            self.method = method
            self.path = path
            self.summary = summary
            self.authenticated = authenticated
            self.query = query
            requestBody = body
            self.responses = responses
        }
    }

    /// A query parameter (`in: query`) and its schema.
    public struct Parameter: Sendable {
        public var name: String
        public var schema: Schema
        public var required: Bool

        public init(_ name: String, _ schema: Schema, required: Bool = false) {
            self.name = name
            self.schema = schema
            self.required = required
        }

        /// `limit`: a page size within `range`.
        public static func limit(_ range: ClosedRange<Int> = 1...100) -> Parameter { Parameter("limit", .integer(range)) }
        /// `cursor`: where the previous page ended.
        public static let cursor = Parameter("cursor", .cursor)
    }

    /// A small JSON Schema subset for request bodies and query parameters, with the bounds
    /// a service enforces (a value outside them is answered with a 4xx).
    public indirect enum Schema: Sendable {
        /// A string; lengths in characters.
        case string(format: String? = nil, minLength: Int? = nil, maxLength: Int? = nil)
        /// A string that must be one of `values` (JSON Schema `enum`).
        case oneOf([String])
        /// An integer without declared bounds; see ``integer(_:)``.
        case integer
        /// A number without declared bounds; see ``number(_:)``.
        case number
        /// An integer from `minimum` to `maximum`, both included; written ``integer(_:)``.
        case boundedInteger(minimum: Int, maximum: Int)
        /// A number from `minimum` to `maximum`, both included; written ``number(_:)``.
        case boundedNumber(minimum: Double, maximum: Double)
        case boolean
        /// An array of `items`, at most `maxItems` of them.
        case array(Schema, maxItems: Int? = nil)
        case object([String: Schema], required: [String] = [])

        /// An integer within `range`.
        public static func integer(_ range: ClosedRange<Int>) -> Schema {
            .boundedInteger(minimum: range.lowerBound, maximum: range.upperBound)
        }

        /// A number within `range`.
        public static func number(_ range: ClosedRange<Double>) -> Schema {
            .boundedNumber(minimum: range.lowerBound, maximum: range.upperBound)
        }

        /// A latitude in degrees.
        public static let latitude = number(-90...90)
        /// A longitude in degrees.
        public static let longitude = number(-180...180)
        /// An ISO 4217 currency code: three capital letters.
        public static let currencyCode = string(minLength: 3, maxLength: 3)
        /// A keyword search (`q`), as ``FullTextQuery`` bounds it.
        public static let searchText = string(maxLength: FullTextQuery.maxLength)
        /// A page's `cursor`, as ``OpaqueCursor`` bounds it.
        public static let cursor = string(maxLength: OpaqueCursor.maximumLength)

        var json: [String: Any] {
            switch self {
            case let .string(format, minLength, maxLength):
                var json: [String: Any] = ["type": "string"]
                json["format"] = format
                json["minLength"] = minLength
                json["maxLength"] = maxLength
                return json
            case .oneOf(let values): return ["type": "string", "enum": values]
            case .integer: return ["type": "integer"]
            case .number: return ["type": "number"]
            case let .boundedInteger(minimum, maximum): return ["type": "integer", "minimum": minimum, "maximum": maximum]
            case let .boundedNumber(minimum, maximum): return ["type": "number", "minimum": minimum, "maximum": maximum]
            case .boolean: return ["type": "boolean"]
            case let .array(items, maxItems):
                var json: [String: Any] = ["type": "array", "items": items.json]
                json["maxItems"] = maxItems
                return json
            case let .object(properties, required):
                return ["type": "object", "properties": properties.mapValues(\.json), "required": required]
            }
        }
    }

    /// The operations every service serves through the kit.
    static let kitOperations: [Operation] = [
        Operation("GET", "/health/live", "Liveness: the process answers."),
        Operation("GET", "/health/ready", "Readiness: projections have caught up.", responses: [200: "Ready", 503: "Catching up"]),
        Operation("GET", "/metrics", "Prometheus metrics."),
        Operation("GET", "/openapi.json", "This document."),
    ]

    /// The document as JSON.
    public func json() throws -> Data {
        try Self.serialize(title: title, paths: pathItems(of: operations + Self.kitOperations, tag: nil))
    }

    /// Each path's item: its operations with parameters, security, body and responses.
    /// - Parameter tag: the tag every operation gets (the service's name in a merged document).
    func pathItems(of operations: [Operation], tag: String?) -> [String: [String: Any]] {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            var entry: [String: Any] = ["summary": operation.summary]
            if let tag { entry["tags"] = [tag] }
            let parameters = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { name -> [String: Any] in
                ["name": String(name.dropFirst().dropLast()), "in": "path", "required": true, "schema": ["type": "string"]]
            } + operation.query.map { ["name": $0.name, "in": "query", "required": $0.required, "schema": $0.schema.json] }
            if !parameters.isEmpty { entry["parameters"] = parameters }
            if operation.authenticated { entry["security"] = [["bearer": [String]()]] }
            if let body = operation.requestBody {
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": body.json]]]
            }
            var responses: [String: Any] = [:]
            for (status, description) in operation.responses { responses[String(status)] = ["description": description] }
            responses["default"] = ["description": "A problem document (RFC 9457)",
                                    "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
            entry["responses"] = responses
            paths[operation.path, default: [:]][operation.method.lowercased()] = entry
        }
        return paths
    }

    /// A whole document around `paths`, with the components every operation refers to.
    static func serialize(title: String, description: String? = nil, tags: [[String: Any]]? = nil, paths: [String: [String: Any]]) throws -> Data {
        var info: [String: Any] = ["title": title, "version": "1"]
        if let description { info["description"] = description }
        var document: [String: Any] = [
            "openapi": "3.1.0",
            "info": info,
            "paths": paths,
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
                "schemas": ["Problem": [
                    "type": "object",
                    "properties": ["type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                                   "detail": ["type": "string"], "errors": ["type": "object"]],
                ]],
            ],
        ]
        if let tags { document["tags"] = tags }
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted])
    }
}

extension OpenAPIDocument {
    /// Every operation as `"METHOD /path"`, the kit's included.
    public var documentedRoutes: Set<String> {
        Set((operations + Self.kitOperations).map { "\($0.method) \($0.path)" })
    }
}
