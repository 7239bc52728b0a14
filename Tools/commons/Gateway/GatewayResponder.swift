import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ReadModel
import ServiceKit
import StackKit
import Tracing

/// What the gateway knows of a request beyond the request itself: the client's address and connection.
struct GatewayRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address, for `X-Forwarded-For`.
    let clientAddress: String?
    /// The client's connection, which an event stream watches to stop when the client leaves.
    let connection: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
        connection = source.channel
    }
}

/// Answers every request to the gateway: its own `/health/ready` and `/health/live`, the
/// API's documentation (``GatewayDocs``), the web app (``GatewayWebApp``), and for everything
/// else the answer of the service whose path prefix it is.
struct GatewayResponder: HTTPResponder {
    typealias Context = GatewayRequestContext

    /// The largest request body the gateway passes on.
    static let bodyLimit = 12 * 1024 * 1024
    /// How long a service may take over one request, body included; event streams have no
    /// such limit (``GatewayRoutes/isEventStream(path:accept:)``).
    static let serviceTimeout = TimeAmount.minutes(5)

    let routes: GatewayRoutes
    /// The base URL of each running service, by name; a routed service missing here is not running.
    let upstreams: [String: String]
    let readiness: StackReadiness
    /// `/openapi.json` and the page at `/docs/`.
    let docs: GatewayDocs
    /// The web app at `/`.
    let web: GatewayWebApp
    let client: HTTPClient
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        // The client's id if it sent one, else a new one, so that the service logs under the same id.
        let requestId = request.headers[GatewayHeader.requestId] ?? UUID().lowercasedText
        var response: Response
        do {
            switch (request.method, request.uri.path) {
            case (.get, "/health/ready"), (.head, "/health/ready"):
                response = try await readinessResponse()
            case (.get, "/health/live"), (.head, "/health/live"):
                response = try Response.json(GatewayHealth(status: "live", services: nil))
            case (_, "/health/ready"), (_, "/health/live"):
                throw Problem.methodNotAllowed(allowed: ["GET", "HEAD"])
            default:
                if let page = try docs.response(to: request.method, path: request.uri.path) {
                    response = page
                } else if routes.service(for: request.uri.path) == nil, let page = try web.response(to: request.method, path: request.uri.path) {
                    response = page
                } else {
                    response = try await forward(request, requestId: requestId, context: context)
                }
            }
        } catch let problem as Problem {
            response = try problem.response(from: request, context: context)
        }
        if response.headers[GatewayHeader.requestId] == nil { response.headers[GatewayHeader.requestId] = requestId }
        return response
    }

    /// 200 when every running service is ready, else a 503 problem that names those that are not.
    private func readinessResponse() async throws -> Response {
        let notReady = await readiness.notReady()
        guard notReady.isEmpty else {
            throw Problem.notReady("Not ready yet: \(notReady.joined(separator: ", ")).", notReady: notReady)
        }
        let services = Dictionary(uniqueKeysWithValues: readiness.services.map { ($0.name, "ready") })
        return try Response.json(GatewayHealth(status: "ready", services: services))
    }

    /// Sends `request` on to its service and returns the service's answer as it comes.
    private func forward(_ request: Request, requestId: String, context: Context) async throws -> Response {
        let path = request.uri.path
        guard let service = routes.service(for: path) else {
            throw Problem.notFound("No service of Commons serves \(path).")
        }
        guard let upstream = upstreams[service] else {
            throw Problem.badGateway("The \(service) service is not running in this stack.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.bodyLimit {
            throw Problem.tooLarge(limit: Self.bodyLimit)
        }
        let body: ByteBuffer
        do {
            body = try await request.readBody(upTo: Self.bodyLimit)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.malformed("The request body could not be read.")
        }

        var outgoing = HTTPClientRequest(url: upstream + path + (request.uri.query.map { "?\($0)" } ?? ""))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers = Self.forwardedHeaders(of: request, requestId: requestId, clientAddress: context.clientAddress)
        if body.readableBytes > 0 || request.headers[.contentLength] != nil { outgoing.body = .bytes(body) }

        let isStream = GatewayRoutes.isEventStream(path: path, accept: request.headers[.accept])
        let deadline = isStream ? NIODeadline.distantFuture : .now() + Self.serviceTimeout
        let response = try await traced(request, to: service) {
            do {
                return try await client.execute(outgoing, deadline: deadline)
            } catch {
                logger.warning("\(service) did not answer \(request.method) \(path): \(error)")
                throw Problem.badGateway("The \(service) service is not answering; it may be restarting.")
            }
        }
        return Response(
            status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
            headers: Self.returnedHeaders(response.headers),
            body: isStream ? await Self.relay(response.body, whileConnected: context.connection) : ResponseBody(asyncSequence: response.body))
    }

    /// A service's event stream, copied to the client until either ends. When the client goes
    /// away the copy stops and the connection to the service closes, so the service frees the
    /// stream at once (``ClientDeparture``), where it learned of it only when the gateway's
    /// own write failed, 30 s on.
    static func relay(_ upstream: HTTPClientResponse.Body, whileConnected connection: any Channel) async -> ResponseBody {
        let (chunks, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        // Watched before the answer's head goes out: a client may read the head and leave
        // before the body starts, and a departure before the watch goes unseen.
        let departure = await ClientDeparture.watch(connection) { continuation.finish() }
        return ResponseBody { writer in
            let copying = Task {
                do {
                    for try await chunk in upstream { continuation.yield(chunk) }
                } catch {
                    // The service ended the stream, or the copy was stopped: either ends the client's.
                }
                continuation.finish()
            }
            defer {
                departure.stop()
                copying.cancel()
            }
            for await chunk in chunks { try await writer.write(chunk) }
            try await writer.finish(nil)
        }
    }

    /// Runs `send` in a span of the request's trace (a new one without `traceparent`) when
    /// tracing is on; the HTTP client then sends the service a `traceparent` of its own span
    /// under this one.
    private func traced(
        _ request: Request, to service: String, _ send: () async throws -> HTTPClientResponse
    ) async throws -> HTTPClientResponse {
        guard EventTrace.isOn else { return try await send() }
        let parent = EventTrace.context(traceparent: request.headers[GatewayHeader.traceparent]) ?? .topLevel
        return try await withSpan("gateway \(request.method.rawValue) to \(service)", context: parent, ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.path"] = request.uri.path
            span.attributes["commons.upstream"] = service
            let response = try await send()
            span.attributes["http.response.status_code"] = Int(response.status.code)
            if response.status.code >= 500 { span.setStatus(.init(code: .error)) }
            return response
        }
    }

    /// The request's end-to-end headers, with `X-Request-Id` and the gateway's `X-Forwarded-*`.
    /// Tracing, the client's trace context is left to the HTTP client, which sends its own.
    static func forwardedHeaders(of request: Request, requestId: String, clientAddress: String?) -> HTTPHeaders {
        let traceContext: Set<String> = EventTrace.isOn ? ["traceparent", "tracestate"] : []
        let dropped = hopByHop(request.headers[values: .connection]).union(["host", "content-length"]).union(traceContext)
        var headers = HTTPHeaders()
        for field in request.headers where !dropped.contains(field.name.canonicalName) {
            headers.add(name: field.name.rawName, value: field.value)
        }
        let forwardedFor = headers[canonicalForm: "X-Forwarded-For"].map(String.init) + [clientAddress].compactMap { $0 }
        headers.replaceOrAdd(name: "X-Forwarded-For", value: forwardedFor.joined(separator: ", "))
        headers.replaceOrAdd(name: "X-Forwarded-Proto", value: "http")
        headers.replaceOrAdd(name: "X-Request-Id", value: requestId)
        if let host = request.head.authority { headers.replaceOrAdd(name: "X-Forwarded-Host", value: host) }
        return headers
    }

    /// The service's response headers without those that belong to its connection with the gateway.
    static func returnedHeaders(_ headers: HTTPHeaders) -> HTTPFields {
        let dropped = hopByHop(headers[canonicalForm: "Connection"].map(String.init))
        var fields = HTTPFields()
        for (name, value) in headers where !dropped.contains(name.lowercased()) {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        return fields
    }

    /// Headers that concern one connection only (RFC 9110, 7.6.1), lowercased: the standard
    /// ones and those a `Connection` header names.
    private static func hopByHop(_ connection: [String]) -> Set<String> {
        let named = connection.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"] + named)
    }
}

/// What the gateway's `/health/live` and `/health/ready` answer with 200; `services` lists
/// the running services, which tells `commons seed` which steps to take.
struct GatewayHealth: Codable, Sendable {
    var status: String
    var services: [String: String]?
}

private enum GatewayHeader {
    static let requestId = HTTPField.Name("X-Request-Id")!
    static let traceparent = HTTPField.Name("traceparent")!
}

extension Problem {
    /// 502: the service behind the gateway did not answer.
    static func badGateway(_ detail: String) -> Problem {
        Problem(.badGateway, type: "bad-gateway", detail: detail)
    }

    /// 503 from the gateway, naming the services that are not ready in `notReady`.
    static func notReady(_ detail: String, notReady: [String]) -> Problem {
        var problem = Problem.notReady(detail)
        problem.extensions = ["notReady": notReady.joined(separator: ",")]
        return problem
    }
}
