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
        /// The JSON body of each status that has one; errors are problem documents and need none.
        public var returns: [Int: Schema]
        /// Whether the route refuses a POST without `Idempotency-Key` (moving money, say).
        public var requiresIdempotencyKey = false
        /// The media types of a body that is not JSON (an upload), each taken as bytes.
        public var uploadTypes: [String] = []
        /// The part that holds the file when the upload may also come as `multipart/form-data`.
        public var multipartFile: String?
        /// Whether the route reads `If-Match`: nil not, false optional, true required (428 without).
        public var ifMatchRequired: Bool?
        /// The media type of a 2xx answer that is bytes, not JSON (a file).
        public var answerType: String?
        /// Whether the operation starts or refreshes a session, and so can deliver its tokens
        /// as browser cookies (``BrowserSession``).
        public var deliversTokens = false

        public init(
            _ method: String, _ path: String, _ summary: String, authenticated: Bool = false, query: [Parameter] = [],
            body: Schema? = nil, responses: [Int: String] = [200: "OK"], returns: [Int: Schema] = [:]
        ) {
            self.method = method
            self.path = path
            self.summary = summary
            self.authenticated = authenticated
            self.query = query
            requestBody = body
            self.responses = responses
            self.returns = returns
        }

        /// This operation, refusing a POST without `Idempotency-Key`.
        public func requiringIdempotencyKey() -> Operation {
            var operation = self
            operation.requiresIdempotencyKey = true
            return operation
        }

        /// This operation, taking a body of one of `types` as bytes instead of JSON, or a
        /// `multipart/form-data` body whose part `multipartFile` holds them.
        public func uploading(_ types: [String], multipartFile: String? = nil) -> Operation {
            var operation = self
            operation.uploadTypes = types
            operation.multipartFile = multipartFile
            return operation
        }

        /// This operation, answering a success with bytes of media type `type` instead of JSON.
        public func answering(_ type: String) -> Operation {
            var operation = self
            operation.answerType = type
            return operation
        }

        /// This operation, answering with a session's tokens, in the body or, asked with
        /// `Commons-Token-Delivery: cookie`, as browser cookies (``BrowserSession``).
        public func deliveringTokens() -> Operation {
            var operation = self
            operation.deliversTokens = true
            return operation
        }

        /// This operation, reading `If-Match` (an ETag it sent): refusing a stale one with 412,
        /// and, when `required`, a request without one with 428.
        public func readingIfMatch(required: Bool) -> Operation {
            var operation = self
            operation.ifMatchRequired = required
            return operation
        }

        /// Every status the operation can answer: its own, and those every route of the kit
        /// can give (a malformed request, a missing or bad token, an unknown id, too large or
        /// invalid a body, an `Idempotency-Key` in use or reused, the rate limit, an outage or a
        /// deadline).
        public var allResponses: [Int: String] {
            var all = responses
            func kit(_ status: Int, _ description: String? = nil) {
                all[status] = all[status] ?? description ?? OpenAPIDocument.kitDescriptions[status]
            }
            if !query.isEmpty || requestBody != nil || path.contains("{") { kit(400) }
            // A bad or expired token is refused on public routes too.
            kit(401, authenticated ? nil : "The access token sent is not valid (send none)")
            if path.contains("{") { kit(404) }
            if method != "GET" { kit(403) }
            if let ifMatchRequired {
                kit(412)
                if ifMatchRequired { kit(428) }
            }
            if requestBody != nil || !uploadTypes.isEmpty {
                kit(413)
                kit(415)
                kit(422)
            }
            if method == "POST" {
                kit(409)
                kit(422, "The Idempotency-Key was used with another body")
            }
            kit(429)
            kit(503)
            return all
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
        /// An array of `items`, at most `maxItems` of them (and at least `minItems`).
        case array(Schema, maxItems: Int? = nil, minItems: Int? = nil)
        /// A string that matches the regular expression `pattern`, its length within `length`.
        case matching(String, length: ClosedRange<Int>)
        case object([String: Schema], required: [String] = [])
        /// An object whose keys are data (ids, say), every value a `Schema` (`additionalProperties`).
        case map(Schema)
        /// The value, or `null`.
        case nullable(Schema)
        /// Any JSON value.
        case anyValue
        /// `Schema` under a name: written once in `components.schemas` and referred to; see ``named(_:)``.
        case named(String, Schema)
        /// `Schema` that must also match one of `anyOf` (JSON Schema `anyOf` beside its own
        /// keywords), for a rule across fields; see ``requiringAny(of:)``.
        case requiring(Schema, anyOf: [Schema])
        /// Text that holds no NUL (U+0000), which no field accepts; see ``refusingNUL``.
        case withoutNUL(Schema)

        /// This schema, valid only when a value also matches one of `branches`: "give one of
        /// these fields" (each branch requiring one), or a bound that depends on another field.
        /// A branch names only the fields it speaks of; others are left to this schema.
        public func requiringAny(of branches: [Schema]) -> Schema { .requiring(self, anyOf: branches) }

        /// This schema under `name`, shared in the document's `components.schemas` by every
        /// operation that uses it (an answer's view, say).
        public func named(_ name: String) -> Schema { .named(name, self) }

        /// The named schemas this one uses, by name, as JSON (for `components.schemas`).
        func components(into found: inout [String: Any]) {
            switch self {
            case let .named(name, schema):
                guard found[name] == nil else { return }
                found[name] = schema.json
                schema.components(into: &found)
            case let .array(items, _, _): items.components(into: &found)
            case let .object(properties, _): for property in properties.values { property.components(into: &found) }
            case .map(let values): values.components(into: &found)
            case .nullable(let wrapped): wrapped.components(into: &found)
            case let .requiring(schema, branches): for part in [schema] + branches { part.components(into: &found) }
            case .withoutNUL(let text): text.components(into: &found)
            default: break
            }
        }

        /// An integer within `range`.
        public static func integer(_ range: ClosedRange<Int>) -> Schema {
            .boundedInteger(minimum: range.lowerBound, maximum: range.upperBound)
        }

        /// A number within `range`.
        public static func number(_ range: ClosedRange<Double>) -> Schema {
            .boundedNumber(minimum: range.lowerBound, maximum: range.upperBound)
        }

        /// This schema as a request body is read: a field that is not required may also be
        /// `null`, which the services read as absent (and a `PATCH` as "clear").
        var optionalsNullable: Schema {
            switch self {
            case let .object(properties, required):
                return .object(
                    properties.mapValues { $0.optionalsNullable }.reduce(into: [:]) { fields, field in
                        if required.contains(field.key) {
                            fields[field.key] = field.value
                        } else if case .nullable = field.value {
                            fields[field.key] = field.value
                        } else {
                            fields[field.key] = .nullable(field.value)
                        }
                    }, required: required)
            case let .array(items, maxItems, minItems): return .array(items.optionalsNullable, maxItems: maxItems, minItems: minItems)
            case .map(let values): return .map(values.optionalsNullable)
            case .nullable(let wrapped): return .nullable(wrapped.optionalsNullable)
            case let .requiring(schema, branches): return .requiring(schema.optionalsNullable, anyOf: branches.map(\.optionalsNullable))
            default: return self
            }
        }

        /// This schema as a request reads it: every text refuses NUL (U+0000), as every route
        /// does (SQLite's bound text would end at it).
        var refusingNUL: Schema {
            switch self {
            case .string: return .withoutNUL(self)
            case let .array(items, maxItems, minItems): return .array(items.refusingNUL, maxItems: maxItems, minItems: minItems)
            case let .object(properties, required): return .object(properties.mapValues(\.refusingNUL), required: required)
            case .map(let values): return .map(values.refusingNUL)
            case .nullable(let wrapped): return .nullable(wrapped.refusingNUL)
            case let .requiring(schema, branches): return .requiring(schema.refusingNUL, anyOf: branches)
            default: return self
            }
        }

        /// The pattern of text without NUL, as JSON Schema (ECMA-262) writes it.
        static let noNULPattern = "^[^\\u0000]*$"

        /// A latitude in degrees.
        public static let latitude = number(-90...90)
        /// A longitude in degrees.
        public static let longitude = number(-180...180)
        /// An ISO 4217 currency code: three capital letters.
        public static let currencyCode = matching("^[A-Z]{3}$", length: 3...3)
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
            case let .array(items, maxItems, minItems):
                var json: [String: Any] = ["type": "array", "items": items.json]
                json["maxItems"] = maxItems
                json["minItems"] = minItems
                return json
            case let .matching(pattern, length):
                return ["type": "string", "pattern": pattern, "minLength": length.lowerBound, "maxLength": length.upperBound]
            case let .object(properties, required):
                return ["type": "object", "properties": properties.mapValues(\.json), "required": required]
            case .map(let values):
                return ["type": "object", "additionalProperties": values.json]
            case .nullable(.named(let name, _)):
                return ["anyOf": [["$ref": "#/components/schemas/\(name)"], ["type": "null"]]]
            case .nullable(let wrapped):
                var json = wrapped.json
                if let type = json["type"] as? String { json["type"] = [type, "null"] }
                if let values = json["enum"] as? [Any] { json["enum"] = values + [NSNull()] }
                return json
            case .anyValue:
                return [:]
            case .named(let name, _):
                return ["$ref": "#/components/schemas/\(name)"]
            case let .requiring(schema, branches):
                return schema.json.merging(["anyOf": branches.map(\.json)]) { mine, _ in mine }
            case .withoutNUL(let text):
                return text.json.merging(["pattern": Self.noNULPattern]) { mine, _ in mine }
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
        try Self.serialize(title: title, paths: pathItems(of: operations + Self.kitOperations, tag: nil), schemas: sharedSchemas())
    }

    /// The named schemas the operations use, by name, for `components.schemas`.
    func sharedSchemas() -> [String: Any] {
        var found: [String: Any] = [:]
        for operation in operations {
            operation.requestBody?.components(into: &found)
            for schema in operation.returns.values { schema.components(into: &found) }
        }
        return found
    }

    /// Each path's item: its operations with parameters, security, body and responses.
    /// - Parameter tag: the tag every operation gets (the service's name in a merged document).
    func pathItems(of operations: [Operation], tag: String?) -> [String: [String: Any]] {
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            var entry: [String: Any] = ["summary": operation.summary]
            if let tag { entry["tags"] = [tag] }
            let parameters =
                operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { name -> [String: Any] in
                    ["$ref": "#/components/parameters/\(Self.pathParameterComponent(String(name.dropFirst().dropLast())))"]
                } + operation.query.map { ["name": $0.name, "in": "query", "required": $0.required, "schema": $0.schema.refusingNUL.json] }
                + Self.requestHeaders(of: operation)
            if !parameters.isEmpty { entry["parameters"] = parameters }
            if operation.authenticated { entry["security"] = [["bearer": [String]()], ["sessionCookie": [String]()]] }
            if let body = operation.requestBody {
                entry["requestBody"] = [
                    "required": true,
                    "content": [
                        "application/json": [
                            "schema": Self.refusingNULAnywhere(body.refusingNUL.optionalsNullable.json), "example": body.example(),
                        ]
                    ],
                ]
            } else if !operation.uploadTypes.isEmpty {
                let bytes: [String: Any] = ["schema": ["type": "string", "format": "binary"]]
                var content = Dictionary(uniqueKeysWithValues: operation.uploadTypes.map { ($0, bytes) })
                if let part = operation.multipartFile {
                    content["multipart/form-data"] = [
                        "schema": [
                            "type": "object", "properties": [part: ["type": "string", "format": "binary"]],
                            "required": [part],
                        ]
                    ]
                }
                entry["requestBody"] = ["required": true, "content": content]
            }
            var responses: [String: Any] = [:]
            for (status, description) in operation.allResponses {
                if status >= 400, operation.returns[status] == nil {
                    responses[String(status)] = Self.problemReference(status, description: description)
                    continue
                }
                var response: [String: Any] = ["description": description, "headers": Self.responseHeaders(method: operation.method, status: status)]
                if let body = operation.returns[status] {
                    response["content"] = ["application/json": ["schema": body.json]]
                } else if status < 300, let type = operation.answerType {
                    response["content"] = [type: ["schema": ["type": "string", "format": "binary"]]]
                }
                responses[String(status)] = response
            }
            responses["default"] = ["$ref": "#/components/responses/\(Self.defaultResponse)"]
            entry["responses"] = responses
            paths[operation.path, default: [:]][operation.method.lowercased()] = entry
        }
        return paths
    }

    /// The shared schema of any JSON without NUL, in a string or a key, at any depth.
    static let withoutNUL = "WithoutNUL"

    /// A request body's schema, also refusing NUL in what it does not name (a field it
    /// ignores, a key): every route refuses a body with NUL anywhere (``JSONNUL``).
    static func refusingNULAnywhere(_ schema: [String: Any]) -> [String: Any] {
        let reference = ["$ref": "#/components/schemas/\(withoutNUL)"]
        // Beside a schema's own keywords a reference adds its rules; a reference alone is wrapped.
        return schema["$ref"] == nil ? schema.merging(reference) { mine, _ in mine } : ["allOf": [schema, reference]]
    }

    /// The headers the kit reads on every route (as references to ``headerParameters``):
    /// the request and correlation ids, and `Commons-Min-Position` on reads or
    /// `Idempotency-Key` on POST.
    static func requestHeaders(of operation: Operation) -> [[String: Any]] {
        var names = ["XRequestId", "XCorrelationId"]
        switch operation.method {
        case "GET": names.append("CommonsMinPosition")
        case "POST": names.append(operation.requiresIdempotencyKey ? "IdempotencyKeyRequired" : "IdempotencyKey")
        default: break
        }
        if let required = operation.ifMatchRequired { names.append(required ? "IfMatchRequired" : "IfMatch") }
        if operation.deliversTokens { names.append("CommonsTokenDelivery") }
        return names.map { ["$ref": "#/components/parameters/\($0)"] }
    }

    /// The headers the kit writes on answers (as references to ``answerHeaders``): ids and
    /// rate limits always, `Retry-After` on 429 and 503, and `Commons-Position` on a write
    /// that succeeded.
    static func responseHeaders(method: String, status: Int) -> [String: Any] {
        var names = ["X-Request-Id", "RateLimit", "RateLimit-Policy"]
        if status == 429 || status == 503 { names.append("Retry-After") }
        if method != "GET", (200..<300).contains(status) { names.append("Commons-Position") }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, ["$ref": "#/components/headers/\($0)"] as [String: Any]) })
    }

    /// `components.parameters`: the request headers of ``requestHeaders(of:)``.
    static var headerParameters: [String: Any] {
        // Any id is taken: one that is not 1-128 letters, digits and -_.: is replaced, not refused.
        let id: [String: Any] = ["type": "string"]
        let key: [String: Any] = ["type": "string", "minLength": 1, "maxLength": 255]
        let keyUse = "The same key on a retry returns the first answer instead of acting twice (kept 24 hours)."
        func header(_ name: String, _ schema: [String: Any], _ description: String, required: Bool = false) -> [String: Any] {
            ["name": name, "in": "header", "required": required, "schema": schema, "description": description]
        }
        return [
            "XRequestId": header(
                "X-Request-Id", id,
                "Your id for this request (1-128 letters, digits and -_.:), logged and returned; "
                    + "one is made if absent or not of that form."),
            "XCorrelationId": header(
                "X-Correlation-Id", id,
                "Ties the requests of one user action together across services "
                    + "(default: the request id; the same form)."),
            "CommonsMinPosition": header(
                "Commons-Min-Position", ["type": "string", "pattern": "^([0-9]{1,18}:)?[0-9]{1,18}$"],
                "A write's Commons-Position: the answer waits (up to 2 s, then 503) until this service has read it."),
            "IdempotencyKey": header("Idempotency-Key", key, keyUse),
            "IfMatch": header(
                "If-Match", ["type": "string", "pattern": ETagVersion.pattern],
                "The ETag you read: the change is refused with 412 if the thing changed since."),
            "IfMatchRequired": header(
                "If-Match", ["type": "string", "pattern": ETagVersion.pattern],
                "The ETag you read: the change is refused with 412 if the thing changed since, and with 428 without it.",
                required: true),
            "IdempotencyKeyRequired": header("Idempotency-Key", key, keyUse + " This route refuses a request without one.", required: true),
            "CommonsTokenDelivery": header(
                "Commons-Token-Delivery", ["type": "string", "enum": ["body", "cookie"]],
                "`cookie` (for browsers): the tokens are set as HttpOnly cookies instead of being in the body, "
                    + "and a refresh reads the refresh cookie when the body has no token."),
        ]
    }

    /// `components.headers`: the answer headers of ``responseHeaders(method:status:)``.
    static var answerHeaders: [String: Any] {
        func header(_ type: String, _ description: String) -> [String: Any] { ["schema": ["type": type], "description": description] }
        return [
            "X-Request-Id": header("string", "The request's id."),
            "RateLimit": header("string", "What is left of this client's budget (IETF draft)."),
            "RateLimit-Policy": header("string", "The budget (IETF draft)."),
            "Retry-After": header("integer", "Seconds to wait before trying again."),
            "Commons-Position": header("string", "Where the write is in the log: send it as Commons-Min-Position to read it back from any service."),
        ]
    }

    /// A whole document around `paths`, with the components every operation refers to.
    static func serialize(
        title: String, description: String? = nil, tags: [[String: Any]]? = nil, paths: [String: [String: Any]],
        schemas: [String: Any] = [:]
    ) throws -> Data {
        let repeats = sharingRepeats(of: paths)
        let paths = repeats.paths
        let shared = sharedComponents(of: paths)
        var info: [String: Any] = ["title": title, "version": "1"]
        if let description { info["description"] = description }
        var document: [String: Any] = [
            "openapi": "3.1.0",
            "info": info,
            "paths": paths,
            "components": [
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"],
                    "sessionCookie": [
                        "type": "apiKey", "in": "cookie", "name": BrowserSession.accessCookie,
                        "description": "A browser's session (Commons-Token-Delivery: cookie). A request that changes anything "
                            + "must echo the \(BrowserSession.csrfCookie) cookie as X-CSRF-Token, or it is refused with 403.",
                    ],
                ],
                "parameters": headerParameters.merging(shared.pathParameters) { mine, _ in mine }.merging(repeats.parameters) { mine, _ in mine },
                "headers": answerHeaders,
                "responses": shared.responses.merging(repeats.responses) { mine, _ in mine },
                "schemas": schemas.merging([
                    withoutNUL: [
                        "description": "Any JSON without NUL (U+0000) in a string or a key, as every request body is read.",
                        "pattern": Schema.noNULPattern, "propertyNames": ["pattern": Schema.noNULPattern],
                        "additionalProperties": ["$ref": "#/components/schemas/\(withoutNUL)"],
                        "items": ["$ref": "#/components/schemas/\(withoutNUL)"],
                    ],
                    "Problem": [
                        "type": "object",
                        "properties": [
                            "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                            "detail": ["type": "string"], "errors": ["type": "object"],
                        ],
                    ],
                ]) { mine, _ in mine },
            ],
        ]
        if let tags { document["tags"] = tags }
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

extension OpenAPIDocument {
    /// Every operation as `"METHOD /path"`, the kit's included.
    public var documentedRoutes: Set<String> {
        Set((operations + Self.kitOperations).map { "\($0.method) \($0.path)" })
    }
}
