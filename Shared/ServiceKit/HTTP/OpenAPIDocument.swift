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
        public var requestBody: Schema?
        public var responses: [Int: String]

        public init(_ method: String, _ path: String, _ summary: String, authenticated: Bool = false,
                    body: Schema? = nil, responses: [Int: String] = [200: "OK"]) {
            self.method = method
            self.path = path
            self.summary = summary
            self.authenticated = authenticated
            requestBody = body
            self.responses = responses
        }
    }

    /// A small JSON Schema subset for request bodies.
    public indirect enum Schema: Sendable {
        case string(format: String? = nil)
        case integer
        case number
        case boolean
        case array(Schema)
        case object([String: Schema], required: [String] = [])

        var json: [String: Any] {
            switch self {
            case .string(let format): format.map { ["type": "string", "format": $0] } ?? ["type": "string"]
            case .integer: ["type": "integer"]
            case .number: ["type": "number"]
            case .boolean: ["type": "boolean"]
            case .array(let items): ["type": "array", "items": items.json]
            case let .object(properties, required):
                ["type": "object", "properties": properties.mapValues(\.json), "required": required]
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
        var paths: [String: [String: Any]] = [:]
        for operation in operations + Self.kitOperations {
            var entry: [String: Any] = ["summary": operation.summary]
            let parameters = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { name -> [String: Any] in
                ["name": String(name.dropFirst().dropLast()), "in": "path", "required": true, "schema": ["type": "string"]]
            }
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
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": title, "version": "1"],
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
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

extension OpenAPIDocument {
    /// Every operation as `"METHOD /path"`, the kit's included.
    public var documentedRoutes: Set<String> {
        Set((operations + Self.kitOperations).map { "\($0.method) \($0.path)" })
    }
}
