import EventLog
import Foundation
import Hummingbird
import Logging
import NIOCore

/// Who is making a request, from a verified access token.
public struct Identity: Sendable, Hashable {
    public var accountId: UUID
    public var sessionId: UUID
    public var role: Role
    /// When the access token that proved it expires (nil when not known): a live stream ends
    /// then, as a request with that token would be refused.
    public var expiresAt: Date?

    public enum Role: String, Sendable, Codable, Hashable {
        case member
        case admin
    }

    public init(accountId: UUID, sessionId: UUID, role: Role, expiresAt: Date? = nil) {
        self.accountId = accountId
        self.sessionId = sessionId
        self.role = role
        self.expiresAt = expiresAt
    }
}

/// The request context of every Commons service.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The caller, when the request carried a valid access token.
    public var identity: Identity?
    /// From `X-Request-Id`, or made up for this request.
    public var requestId: String = ""
    /// From `X-Correlation-Id`, or the request id.
    public var correlationId: String = ""
    /// The executable serving the request, e.g. `accounts`.
    public var service: String = ""

    /// The peer's address (the gateway's, behind one), for per-client rate limits.
    public var clientAddress: String
    /// The connection the request came on: a live stream watches it to end as soon as the
    /// client goes away (``ClientDeparture``).
    public let connection: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "local"
        connection = source.channel
    }

    /// JSON bodies are small; uploads read their bodies themselves with their own limits.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The caller, or a 401 problem.
    public func requireIdentity() throws -> Identity {
        guard let identity else { throw Problem.unauthorized() }
        return identity
    }

    /// The caller if an admin; 401 or 403 otherwise.
    public func requireAdmin() throws -> Identity {
        let identity = try requireIdentity()
        guard identity.role == .admin else { throw Problem.forbidden("Only administrators may do this.") }
        return identity
    }

    /// The metadata for the events this request appends.
    public var eventMetadata: EventMetadata {
        EventMetadata(
            correlationId: correlationId, causationId: requestId, actorId: identity?.accountId.lowercasedText,
            requestId: requestId, service: service)
    }
}
