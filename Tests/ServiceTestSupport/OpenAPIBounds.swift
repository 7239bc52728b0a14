import Foundation

/// A service's OpenAPI document as it serves it, read for the bounds it declares:
/// which fields have none, and what a field's bound is, so that a test sends a value just
/// past the declared bound rather than one it wrote down itself.
public struct OpenAPIBounds {
    private let paths: [String: Any]
    /// `components.parameters`, which an operation's parameters may refer to.
    private let sharedParameters: [String: [String: Any]]

    /// The document of a service's `GET /openapi.json`.
    public init(json: Data) throws {
        let document = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        paths = document?["paths"] as? [String: Any] ?? [:]
        sharedParameters = (document?["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
    }

    /// The parameters of `operation`, each reference to `components.parameters` read through.
    private func parameters(of operation: [String: Any]?) -> [[String: Any]] {
        (operation?["parameters"] as? [[String: Any]] ?? []).map { parameter in
            guard let reference = parameter["$ref"] as? String else { return parameter }
            return sharedParameters[String(reference.split(separator: "/").last ?? "")] ?? parameter
        }
    }

    /// Every body field and query parameter without a bound, as `"METHOD /path body.field"`
    /// or `"METHOD /path query.name"`: a string needs `maxLength`, an `enum` or a `uuid` or
    /// `date-time` format, and, unless an `enum`, a `pattern` (which refuses NUL, as every route
    /// does); an integer or number `minimum` and `maximum`; an array `maxItems`.
    public var unbounded: Set<String> {
        var found: Set<String> = []
        for (route, operation) in operations {
            for parameter in parameters(of: operation) where parameter["in"] as? String == "query" {
                Self.collect(parameter["schema"] as? [String: Any] ?? [:], at: "\(route) query.\(parameter["name"] as? String ?? "")", into: &found)
            }
            if let body = Self.bodySchema(operation) { Self.collect(body, at: "\(route) body", into: &found) }
        }
        return found
    }

    /// The integer `key` (`maxLength`, `maximum`, `maxItems`...) of a body field's schema, the
    /// field by dotted path (`price.amountMinor`; an array's items are `[]`, as in `commands[].text`).
    public func bound(_ key: String, of route: String, body field: String) throws -> Int {
        var schema = operations[route].flatMap(Self.bodySchema) ?? [:]
        for part in field.split(separator: ".") {
            let name = part.hasSuffix("[]") ? part.dropLast(2) : part
            schema = (schema["properties"] as? [String: Any])?[String(name)] as? [String: Any] ?? [:]
            if part.hasSuffix("[]") { schema = schema["items"] as? [String: Any] ?? [:] }
        }
        return try Self.bound(key, of: schema, "\(route) body.\(field)")
    }

    /// The integer `key` of a query parameter's schema.
    public func bound(_ key: String, of route: String, query name: String) throws -> Int {
        let parameter = parameters(of: operations[route]).first { $0["in"] as? String == "query" && $0["name"] as? String == name }
        return try Self.bound(key, of: parameter?["schema"] as? [String: Any] ?? [:], "\(route) query.\(name)")
    }

    /// The request body's schema of `route` as the document writes it, for the rules a
    /// bound alone cannot state (its `anyOf`, say).
    public func bodySchema(of route: String) -> [String: Any]? {
        operations[route].flatMap(Self.bodySchema)
    }

    private static func bound(_ key: String, of schema: [String: Any], _ field: String) throws -> Int {
        guard let value = schema[key] as? NSNumber else { throw TestFailure("\(field) declares no \(key)") }
        return value.intValue
    }

    /// The operations by `"METHOD /path"`.
    private var operations: [String: [String: Any]] {
        var operations: [String: [String: Any]] = [:]
        for (path, methods) in paths {
            for (method, operation) in methods as? [String: Any] ?? [:] {
                operations["\(method.uppercased()) \(path)"] = operation as? [String: Any]
            }
        }
        return operations
    }

    private static func bodySchema(_ operation: [String: Any]) -> [String: Any]? {
        let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
        return (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    private static func collect(_ schema: [String: Any], at path: String, into found: inout Set<String>) {
        let has = { (key: String) in schema[key] != nil }
        // A nullable field has the type list [type, "null"].
        switch (schema["type"] as? String) ?? (schema["type"] as? [String])?.first(where: { $0 != "null" }) {
        case "string":
            if !has("maxLength"), !has("enum"), !["uuid", "date-time"].contains(schema["format"] as? String ?? "") { found.insert(path) }
            if !has("pattern"), !has("enum") { found.insert(path) }
        case "integer", "number":
            if !has("minimum") || !has("maximum") { found.insert(path) }
        case "array":
            if !has("maxItems") { found.insert(path) }
            collect(schema["items"] as? [String: Any] ?? [:], at: "\(path)[]", into: &found)
        case "object":
            for (name, property) in schema["properties"] as? [String: Any] ?? [:] {
                collect(property as? [String: Any] ?? [:], at: "\(path).\(name)", into: &found)
            }
        case "boolean": break
        default: found.insert(path)
        }
    }
}
