import Foundation
import HTTPTypes

extension OpenAPIDocument {
    /// What the kit says of each error status it answers on every route, the description of
    /// the shared answer in `components.responses`; an operation that says otherwise gives
    /// its own description beside the reference.
    static let kitDescriptions: [Int: String] = [
        400: "Malformed request or invalid parameters",
        401: "No valid access token",
        403: forbiddenDescription,
        404: "Nothing with that id",
        409: "The Idempotency-Key is in use by a request still running (Retry-After)",
        412: "If-Match is not the current ETag (the answer carries the current one)",
        413: "Body too large",
        415: "Not a JSON body",
        422: "Fields that break the rules (errors by field)",
        428: "If-Match is missing",
        429: "Too many requests (Retry-After)",
        503: "Unavailable or past its deadline (Retry-After)",
    ]

    /// What 403 means on any route: the caller may not do this (an administrator's route, another's
    /// thing), or a browser session's change came without its CSRF token.
    public static let forbiddenDescription =
        "Not allowed to this caller (an administrator's route, say), or a cookie session's change without X-CSRF-Token"

    /// The name of the shared problem answer of no particular status (`default`).
    static let defaultResponse = "Problem"

    /// An answer of `status` that is a problem document, as a reference to the shared one.
    static func problemReference(_ status: Int, description: String) -> [String: Any] {
        var reference: [String: Any] = ["$ref": "#/components/responses/\(status)"]
        if description != problemDescription(status) { reference["description"] = description }
        return reference
    }

    static func problemDescription(_ status: Int) -> String {
        kitDescriptions[status] ?? HTTPResponse.Status(code: status).reasonPhrase
    }

    /// `components.responses` and the path parameters of `components.parameters` that `paths`
    /// refer to: each problem answer once, with its headers, and each path parameter once.
    static func sharedComponents(of paths: [String: [String: Any]]) -> (responses: [String: Any], pathParameters: [String: Any]) {
        let problem: [String: Any] = ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]
        var responses: [String: Any] = [defaultResponse: ["description": "A problem document (RFC 9457)", "content": problem]]
        var parameters: [String: Any] = [:]
        for operation in paths.values.flatMap(\.values) {
            guard let operation = operation as? [String: Any] else { continue }
            for case let answer as [String: Any] in (operation["responses"] as? [String: Any] ?? [:]).values {
                guard let name = (answer["$ref"] as? String)?.split(separator: "/").last, let status = Int(name) else { continue }
                responses[String(name)] = [
                    "description": problemDescription(status), "headers": responseHeaders(method: "GET", status: status), "content": problem,
                ]
            }
            for case let parameter as [String: Any] in operation["parameters"] as? [Any] ?? [] {
                guard let reference = parameter["$ref"] as? String, let name = pathParameterName(reference) else { continue }
                parameters[pathParameterComponent(name)] = [
                    "name": name, "in": "path", "required": true, "schema": ["type": "string", "pattern": Schema.noNULPattern],
                ]
            }
        }
        return (responses, parameters)
    }

    /// The `components.parameters` name of the path parameter `name`.
    static func pathParameterComponent(_ name: String) -> String { "path.\(name)" }

    private static func pathParameterName(_ reference: String) -> String? {
        let prefix = "#/components/parameters/path."
        return reference.hasPrefix(prefix) ? String(reference.dropFirst(prefix.count)) : nil
    }
}

extension OpenAPIDocument {
    /// `paths` with each answer and each query parameter that several operations give alike
    /// written once in `components` and referred to, and those shared pieces by name.
    static func sharingRepeats(
        of paths: [String: [String: Any]]
    ) -> (
        paths: [String: [String: Any]], responses: [String: Any], parameters: [String: Any]
    ) {
        var answers = Repeats(kind: "responses")
        var parameters = Repeats(kind: "parameters")
        for operation in paths.values.flatMap(\.values) {
            guard let operation = operation as? [String: Any] else { continue }
            for (status, answer) in operation["responses"] as? [String: Any] ?? [:] {
                answers.count(answer) { "\(status).\(answerName($0))" }
            }
            for parameter in operation["parameters"] as? [Any] ?? [] {
                parameters.count(parameter) { "query.\($0["name"] as? String ?? "")" }
            }
        }
        answers.name()
        parameters.name()
        let rewritten = paths.mapValues { item in
            item.mapValues { operation -> Any in
                guard var written = operation as? [String: Any] else { return operation }
                written["responses"] = (written["responses"] as? [String: Any])?.mapValues(answers.reference)
                written["parameters"] = (written["parameters"] as? [Any])?.map(parameters.reference)
                return written.compactMapValues { $0 }
            }
        }
        return (rewritten, answers.shared, parameters.shared)
    }

    /// What names a shared answer: its JSON schema's name, or its description in UpperCamelCase.
    private static func answerName(_ answer: [String: Any]) -> String {
        let json = (answer["content"] as? [String: Any])?["application/json"] as? [String: Any]
        if let reference = (json?["schema"] as? [String: Any])?["$ref"] as? String, let name = reference.split(separator: "/").last {
            return String(name)
        }
        let words = (answer["description"] as? String ?? "Answer").split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The pieces of one kind (answers, parameters) that are written alike more than once,
    /// counted by their JSON, then each named once for `components.<kind>`.
    private struct Repeats {
        let kind: String
        private var uses: [String: (piece: [String: Any], name: String, count: Int)] = [:]
        private var names: [String: String] = [:]
        private(set) var shared: [String: Any] = [:]

        init(kind: String) { self.kind = kind }

        /// Counts `piece` (unless it is a reference already), named by `name` should it repeat.
        mutating func count(_ piece: Any, name: ([String: Any]) -> String) {
            guard let piece = piece as? [String: Any], let key = Self.key(piece) else { return }
            uses[key, default: (piece, name(piece), 0)].count += 1
        }

        /// Names each repeated piece; a name already taken gets a number.
        mutating func name() {
            for (key, use) in uses.filter({ $0.value.count > 1 }).sorted(by: { $0.key < $1.key }) {
                var name = use.name
                var suffix = 2
                while shared[name] != nil {
                    name = "\(use.name)\(suffix)"
                    suffix += 1
                }
                names[key] = name
                shared[name] = use.piece
            }
        }

        /// `piece`, or a reference to it when it is shared.
        func reference(_ piece: Any) -> Any {
            guard let piece = piece as? [String: Any], let key = Self.key(piece), let name = names[key] else { return piece }
            return ["$ref": "#/components/\(kind)/\(name)"]
        }

        private static func key(_ piece: [String: Any]) -> String? {
            guard piece["$ref"] == nil,
                let data = try? JSONSerialization.data(withJSONObject: piece, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
