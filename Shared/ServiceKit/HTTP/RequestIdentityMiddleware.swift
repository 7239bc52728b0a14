import Codecs
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id (from `X-Request-Id` or new) and a correlation id (from
/// `X-Correlation-Id` or the request id), puts both in the request's logger and the
/// response, and logs one line per request. Behind a trusted proxy (the gateway), the
/// client's address is the last one in `X-Forwarded-For` that is not itself a proxy.
struct RequestIdentityMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let service: String
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.service = service
        context.requestId = Self.acceptable(request.headers[.requestId]) ?? UUID.random().lowercasedText
        context.correlationId = Self.acceptable(request.headers[.correlationId]) ?? context.requestId
        context.logger[metadataKey: "requestId"] = "\(context.requestId)"
        context.logger[metadataKey: "correlationId"] = "\(context.correlationId)"
        context.clientAddress = ClientAddress.resolve(
            peer: context.clientAddress, forwardedFor: request.headers[values: .forwardedFor], trusted: trustedProxies)
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.requestId] = context.requestId
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
            ])
        return response
    }

    /// Client-supplied ids are echoed into logs, so only short, plain ones are taken.
    private static func acceptable(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.count),
            value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else { return nil }
        return value
    }
}

extension HTTPField.Name {
    static let requestId = HTTPField.Name("X-Request-Id")!
    static let correlationId = HTTPField.Name("X-Correlation-Id")!
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    /// The checkpoint of a write, for read-your-writes across services.
    public static let commonsPosition = HTTPField.Name("Commons-Position")!
    /// The checkpoint a read must see.
    public static let commonsMinPosition = HTTPField.Name("Commons-Min-Position")!
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    public static let rateLimit = HTTPField.Name("RateLimit")!
    public static let rateLimitPolicy = HTTPField.Name("RateLimit-Policy")!
}

/// Which address a request comes from, seen through trusted proxies.
public enum ClientAddress {
    /// The client behind any trusted proxies: walking `X-Forwarded-For` from the right, the
    /// first address that is not a trusted proxy. An untrusted peer is the client itself,
    /// whatever it writes in the header.
    public static func resolve(peer: String, forwardedFor: [String], trusted: Set<String>) -> String {
        guard trusted.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return hops.reversed().first { !trusted.contains($0) } ?? peer
    }
}
