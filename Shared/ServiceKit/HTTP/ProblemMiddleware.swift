import Codecs
import EventLog
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// Turns every error into a problem document, so no error leaves a service as anything
/// else. Unknown routes get 404, known paths with another method 405 with `Allow`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try Self.refuseNUL(path: request.uri.path, query: request.uri.query)
            return try await next(request, context)
        } catch {
            return try problem(for: error, request: request, context: context).response(from: request, context: context)
        }
    }

    /// 400 when the path holds a NUL (U+0000), which no address has, or naming each query
    /// field that holds one, which no field accepts (``QueryNUL``); before any route reads them.
    static func refuseNUL(path: String, query: String?) throws {
        // No id or slug holds one: say what is wrong rather than answer 404.
        if path.contains("%00") {
            throw Problem.malformed("The path holds a NUL character (U+0000), which no address has.")
        }
        guard let query else { return }
        let fields = QueryNUL.fields(inQuery: query[...])
        guard !fields.isEmpty else { return }
        let names = fields.map { String($0).removingPercentEncoding ?? String($0) }
        throw Problem.malformed(
            "The query holds a NUL character (U+0000), which no field accepts.",
            errors: Dictionary(names.map { ($0, ["must not contain NUL (U+0000)"]) }) { first, _ in first })
    }

    /// The problem document for `error`; an error no input should cause is logged in full.
    func problem(for error: any Error, request: Request, context: Context) -> Problem {
        switch error {
        case let error as any ProblemConvertible:
            return error.problem
        case let error as DecodingError:
            return Problem.malformed(for: error)
        case let error as NIOTooManyBytesError:
            return .tooLarge(limit: error.maxBytes ?? AppRequestContext.defaultBodyLimit)
        case let error as HTTPError:
            switch error.status {
            case .notFound:
                let allowed = routes.methods(for: request.uri.path)
                return allowed.isEmpty || allowed.contains(request.method.rawValue) ? .notFound() : .methodNotAllowed(allowed: allowed)
            case .contentTooLarge:
                return .tooLarge(limit: AppRequestContext.defaultBodyLimit)
            case .badRequest:
                return .malformed(error.body ?? "The request is malformed.")
            case .unsupportedMediaType:
                return .unsupportedMediaType()
            default:
                return Problem(error.status, type: "http-\(error.status.code)", detail: error.body ?? error.status.reasonPhrase)
            }
        case is DeadlinePassed:
            context.logger.warning("request passed its deadline", metadata: ["path": "\(request.uri.path)"])
            return Problem(
                .serviceUnavailable, type: "deadline", detail: "The answer took too long; try again shortly.",
                headers: ["Retry-After": "1"])
        case _ where StoreAvailability.isUnavailable(error):
            context.logger.warning("a store is unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(
                .serviceUnavailable, type: "store-unavailable",
                detail: "The service cannot reach its storage right now; try again shortly.", headers: ["Retry-After": "2"])
        default:
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(.internalServerError, type: "internal", detail: "Something went wrong on our side; it has been logged.")
        }
    }
}

extension AppRequestContext {
    static let defaultBodyLimit = 64 * 1024
}

extension Problem {
    /// The problem for a JSON body that does not decode: per-field errors where the decoder
    /// says which field, else a line on what is wrong.
    public static func malformed(for error: DecodingError) -> Problem {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "$" : text)
        }
        switch error {
        case let .keyNotFound(key, context):
            return .malformed("A required field is missing.", errors: [path(context, key): ["is required"]])
        case let .valueNotFound(type, context):
            return .malformed("A field is null.", errors: [path(context): ["must be \(describe(type)), not null"]])
        case let .typeMismatch(type, context):
            return .malformed("A field has the wrong type.", errors: [path(context): ["must be \(describe(type))"]])
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty { return .malformed("The body is not valid JSON.") }
            return .malformed("A field has an invalid value.", errors: [path(context): [context.debugDescription]])
        @unknown default:
            return .malformed("The body does not match the expected shape.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        case is UUID.Type: "a UUID"
        case is Date.Type: "an ISO 8601 time"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// The routes of a service, to tell a wrong method (405) from an unknown path (404).
/// Filled once the routes are registered (after the middlewares, which wrap them).
final class RouteTable: Sendable {
    private let routes = Mutex<[(components: [Substring], method: String)]>([])

    func set(_ routes: [(path: String, method: String)]) {
        self.routes.withLock { $0 = routes.map { (Self.split($0.path), $0.method) } }
    }

    /// The methods that the route the router picks for `path` accepts: of the templates that
    /// match, the one with a literal segment first where they differ (`/v1/listings/changes`
    /// before `/v1/listings/{id}`), as the router's tree prefers a literal to a parameter.
    func methods(for path: String) -> [String] {
        let components = Self.split(path)
        let matching = routes.withLock { $0 }.filter { Self.matches($0.components, components) }
        guard let best = matching.map({ Self.specificity($0.components) }).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        return Array(Set(matching.filter { Self.specificity($0.components) == best }.map(\.method))).sorted()
    }

    /// Per segment, 2 for a literal, 1 for a parameter and 0 for a wildcard.
    private static func specificity(_ pattern: [Substring]) -> [Int] {
        pattern.map { $0 == "*" || $0 == "**" ? 0 : ($0.hasPrefix("{") || $0.hasPrefix(":") ? 1 : 2) }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        if pattern.last == "**" { return path.count >= pattern.count - 1 && zip(pattern.dropLast(), path).allSatisfy(componentMatches) }
        return pattern.count == path.count && zip(pattern, path).allSatisfy(componentMatches)
    }

    private static func componentMatches(_ pair: (Substring, Substring)) -> Bool {
        pair.0 == pair.1 || pair.0.hasPrefix("{") || pair.0.hasPrefix(":") || pair.0 == "*"
    }
}

extension Request {
    /// The whole body, or a 413 problem when it is larger than `limit` bytes.
    public func readBody(upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit: limit)
        }
    }

    /// Decodes a JSON body: 415 unless it is sent as JSON, 413 beyond the context's limit,
    /// 400 with per-field errors when it does not decode.
    public func decodeJSON<T: Decodable>(as type: T.Type = T.self, context: AppRequestContext) async throws -> T {
        let contentType = headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/json") || contentType.contains("+json") else {
            throw Problem.unsupportedMediaType()
        }
        let buffer = try await readBody(upTo: context.maxUploadSize)
        if buffer.withUnsafeReadableBytes({ JSONNUL.isIn($0) }) {
            throw Problem.validation(["body": ["must not contain the character U+0000 (NUL) in any text"]])
        }
        do {
            return try ServiceJSON.decoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw Problem.malformed(for: error)
        }
    }
}

/// The JSON conventions of the HTTP API: camelCase keys, ISO 8601 UTC times.
public enum ServiceJSON {
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
