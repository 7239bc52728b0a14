import Foundation
import HTTPTypes
import ServiceKit
import Testing

/// Every answer a service test receives, held against the service's OpenAPI document: its
/// status must be one the operation documents, a JSON body must match the documented
/// schema (no field missing, none undocumented), and an error must be a problem document
/// whose `status` is the answer's. The harnesses call ``verify(_:method:uri:document:)`` on
/// every reply, so the whole of each service's tests checks that the document and the
/// server have not drifted apart.
public enum APIContract {
    /// Where `reply` departs from `document`; empty when it conforms.
    public static func departures(of reply: TestReply, method: HTTPRequest.Method, uri: String, document: OpenAPIDocument) -> [String] {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        guard let operation = operation(method: method.rawValue, path: path, in: document) else {
            // Routes outside the document are the router test's business (and 404 / 405 answers).
            return []
        }
        let route = "\(operation.method) \(operation.path)"
        let status = reply.status.code
        var found: [String] = []
        if operation.allResponses[status] == nil {
            found.append("\(route) answered \(status), which it does not document (it documents \(operation.allResponses.keys.sorted()))")
        }
        let type = reply.headers[.contentType] ?? ""
        if status >= 400 {
            guard type.hasPrefix("application/problem+json") else {
                return found + ["\(route) answered \(status) as \(type), not a problem document"]
            }
            let problem = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
            if (problem?["status"] as? NSNumber)?.intValue != status { found.append("\(route): the problem document's status is not \(status)") }
            return found
        }
        guard let schema = operation.returns[status] else { return found }
        guard type.hasPrefix("application/json") else { return found + ["\(route) answered \(status) as \(type), not JSON"] }
        guard let body = try? JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed]) else {
            return found + ["\(route) answered \(status) with a body that is not JSON"]
        }
        return found + schema.departures(of: body).map { "\(route) \(status): \($0)" }
    }

    /// The answers of `document` that can carry a body (a 2xx other than 204) and declare no
    /// schema for it, as `"METHOD /path STATUS"`; `except` names the routes whose body is not
    /// JSON (event streams, images).
    public static func answersWithoutSchema(in document: OpenAPIDocument, except: Set<String> = []) -> Set<String> {
        var found: Set<String> = []
        for operation in document.operations where !except.contains("\(operation.method) \(operation.path)") && operation.answerType == nil {
            for status in operation.responses.keys where (200..<300).contains(status) && status != 204 && operation.returns[status] == nil {
                found.insert("\(operation.method) \(operation.path) \(status)")
            }
        }
        return found
    }

    /// The request-body examples of `document` that depart from their own schema, as
    /// `"METHOD /path: departure"`; empty when every example conforms.
    public static func examplesNotConforming(in document: OpenAPIDocument) -> [String] {
        document.operations.flatMap { operation in
            operation.requestBody.map { body in
                body.departures(of: body.example()).map { "\(operation.method) \(operation.path): \($0)" }
            } ?? []
        }
    }

    /// Records a test issue for each departure of `reply` from `document`.
    public static func verify(
        _ reply: TestReply, method: HTTPRequest.Method, uri: String, document: OpenAPIDocument,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for departure in departures(of: reply, method: method, uri: uri, document: document) {
            Issue.record("API document and server disagree: \(departure)", sourceLocation: sourceLocation)
        }
    }

    /// The documented operation for `method` on `path`: the one whose template matches with
    /// the most literal segments (`/v1/lists/shared` before `/v1/lists/{id}`).
    static func operation(method: String, path: String, in document: OpenAPIDocument) -> OpenAPIDocument.Operation? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var best: (operation: OpenAPIDocument.Operation, literals: Int)?
        for operation in document.operations where operation.method == method {
            let template = operation.path.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count else { continue }
            var literals = 0
            var matches = true
            for (part, actual) in zip(template, segments) {
                if part.hasPrefix("{") { continue }
                if part != actual { matches = false; break }
                literals += 1
            }
            if matches, literals > (best?.literals ?? -1) { best = (operation, literals) }
        }
        return best?.operation
    }
}
