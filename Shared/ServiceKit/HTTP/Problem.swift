import Foundation
import HTTPTypes
import Hummingbird

/// An RFC 9457 problem document, and the error that carries one to the client.
///
/// Every error a service returns is one of these, rendered as
/// `application/problem+json` by ``ProblemMiddleware``. `type` is a stable URI per kind
/// of problem; `errors` lists per-field validation messages.
public struct Problem: Error, HTTPResponseError, Codable, Sendable, Equatable {
    /// A stable identifier of the kind of problem, e.g. `https://commons.example/problems/validation`.
    public var type: String
    public var title: String
    /// The HTTP status code, repeated in the document.
    public var statusCode: Int
    public var detail: String
    /// Per-field messages, keyed by the field's JSON path (e.g. `price.amount`).
    public var errors: [String: [String]]?
    /// Extra members a client may act on, e.g. the current `version` or `balance`.
    public var extensions: [String: String]?
    /// Response headers that go with the problem (`Retry-After`, `Allow`, …). Not serialized.
    public var headers: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
        case type, title, detail, errors, extensions
        case statusCode = "status"
    }

    public init(
        _ status: HTTPResponse.Status, type: String, title: String? = nil, detail: String,
        errors: [String: [String]]? = nil, extensions: [String: String]? = nil, headers: [String: String] = [:]
    ) {
        statusCode = status.code
        self.type = Self.base + type
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.errors = errors
        self.extensions = extensions
        self.headers = headers
    }

    /// Where problem types live; the part after it names the kind of problem.
    public static let base = "https://commons.example/problems/"

    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(self)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

// MARK: The problems every service uses

extension Problem {
    public static func validation(_ errors: [String: [String]], detail: String = "The request has invalid fields.") -> Problem {
        Problem(.unprocessableContent, type: "validation", title: "Invalid request", detail: detail, errors: errors)
    }

    public static func malformed(_ detail: String, errors: [String: [String]]? = nil) -> Problem {
        Problem(.badRequest, type: "malformed-request", title: "Malformed request", detail: detail, errors: errors)
    }

    public static func notFound(_ detail: String = "There is nothing at this address.") -> Problem {
        Problem(.notFound, type: "not-found", detail: detail)
    }

    public static func methodNotAllowed(allowed: [String]) -> Problem {
        Problem(
            .methodNotAllowed, type: "method-not-allowed",
            detail: "This address accepts \(allowed.joined(separator: ", ")).", headers: ["Allow": allowed.joined(separator: ", ")])
    }

    public static func unauthorized(_ detail: String = "Sign in to do this.") -> Problem {
        Problem(.unauthorized, type: "unauthorized", detail: detail, headers: ["WWW-Authenticate": "Bearer"])
    }

    public static func forbidden(_ detail: String = "You may not do this.") -> Problem {
        Problem(.forbidden, type: "forbidden", detail: detail)
    }

    public static func conflict(_ detail: String, type: String = "conflict", extensions: [String: String]? = nil) -> Problem {
        Problem(.conflict, type: type, detail: detail, extensions: extensions)
    }

    public static func preconditionFailed(currentVersion: Int64) -> Problem {
        Problem(
            .preconditionFailed, type: "stale-version",
            detail: "The resource has changed since you read it; it is at version \(currentVersion).",
            extensions: ["version": String(currentVersion)], headers: ["ETag": "\"\(currentVersion)\""])
    }

    public static func preconditionRequired() -> Problem {
        Problem(.preconditionRequired, type: "if-match-required", detail: "Send If-Match with the ETag you read.")
    }

    public static func tooLarge(limit: Int) -> Problem {
        Problem(.contentTooLarge, type: "too-large", detail: "The request body is larger than \(limit) bytes.")
    }

    public static func unsupportedMediaType(_ detail: String = "Send the body as application/json.") -> Problem {
        Problem(.unsupportedMediaType, type: "unsupported-media-type", detail: detail)
    }

    public static func rateLimited(retryAfter seconds: Int) -> Problem {
        Problem(
            .tooManyRequests, type: "rate-limited", detail: "Too many requests; try again in \(seconds) s.",
            headers: ["Retry-After": String(seconds)])
    }

    public static func notReady(_ detail: String) -> Problem {
        Problem(.serviceUnavailable, type: "not-ready", detail: detail, headers: ["Retry-After": "1"])
    }
}
